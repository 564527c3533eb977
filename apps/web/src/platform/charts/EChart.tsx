/**
 * One chart for every area's dashboards: echarts' tree-shaken ESM core with the bar, line and pie charts only,
 * loaded with the pages that draw charts (never with the shell). The figure's summary is its accessible
 * name, since a canvas has no text; the names a legend shows (`data-legend`, from the option's series) are
 * readable too. Names that come from dictionaries arrive in the screen's language from the server
 * (`countBy` in apps/server/src/platform/crud/count-by.ts).
 */
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { legendNames } from './legend';

echarts.use([
  BarChart,
  LineChart,
  PieChart,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  CanvasRenderer,
]);

export type ChartOption = echarts.EChartsCoreOption;

export function EChart({
  option,
  label,
  height = 300,
}: {
  option: ChartOption;
  label: string;
  height?: number;
}) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    if (!el.current) return;
    const c = echarts.init(el.current);
    chart.current = c;
    const observer = new ResizeObserver(() => c.resize());
    observer.observe(el.current);
    return () => {
      observer.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);
  const legend = legendNames(option);
  return (
    <div
      ref={el}
      role="img"
      aria-label={label}
      data-legend={legend.length ? JSON.stringify(legend) : undefined}
      style={{ width: '100%', height }}
    />
  );
}
