/**
 * One chart for every area's dashboards: echarts' tree-shaken ESM core with the bar, line and pie charts only,
 * loaded with the pages that draw charts (never with the shell). The figure's summary is its accessible
 * name, since a canvas has no text; the names a legend shows (`data-legend`, from the option's series) are
 * readable too. Names that come from dictionaries arrive in the screen's language from the server
 * (`countBy` in apps/server/src/platform/crud/count-by.ts).
 */

import { theme } from 'antd';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { luminance } from '../ui/colour';
import { laidOut, legendNames } from './legend';

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
  const shown = useRef<{ option: ChartOption; width: number } | null>(null);
  // the legend's room depends on the width (its names wrap): laid out again when the width changes
  const draw = useRef((next: ChartOption) => {
    const c = chart.current;
    const width = el.current?.clientWidth ?? 0;
    if (!c || (shown.current?.option === next && shown.current.width === width)) return;
    shown.current = { option: next, width };
    // the page's own ground shows through (echarts' dark theme would paint its own)
    c.setOption(
      { backgroundColor: 'transparent', ...laidOut(next as Record<string, unknown>, width, tall.current) },
      true,
    );
  });
  const current = useRef(option);
  current.current = option;
  const tall = useRef(height);
  tall.current = height;
  // on a dark ground (antd's dark algorithm: the dark layout theme), echarts' dark theme: its labels,
  // legend and axes read there
  const dark = luminance(theme.useToken().token.colorBgContainer) < 0.2;
  useEffect(() => {
    if (!el.current) return;
    const c = echarts.init(el.current, dark ? 'dark' : undefined);
    chart.current = c;
    draw.current(current.current);
    const observer = new ResizeObserver(() => {
      c.resize();
      draw.current(current.current);
    });
    observer.observe(el.current);
    return () => {
      observer.disconnect();
      c.dispose();
      chart.current = null;
      shown.current = null;
    };
  }, [dark]);
  useEffect(() => {
    draw.current(option);
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
