/**
 * A titled chart of named counts, the part an area's overview lays out in a grid: a ring (`pie`) or bars
 * (`bar`) over `items`, its accessible name the title and every item's figure (a canvas has no text).
 */
import { Card } from 'antd';
import { useMemo } from 'react';
import { type ChartOption, EChart } from './EChart';

export interface NamedCount {
  name: string;
  value: number;
}

export const chartSummary = (items: readonly NamedCount[]) =>
  items.map((i) => `${i.name} ${i.value}`).join(', ');

export const pieOption = (items: readonly NamedCount[], colors?: string[]): ChartOption => ({
  tooltip: { trigger: 'item' },
  ...(colors ? { color: colors } : {}),
  // placed by EChart (legend.ts `laidOut`): whole, under the ring
  legend: {},
  series: [
    {
      type: 'pie',
      radius: ['35%', '65%'],
      data: items.filter((i) => i.value > 0).map((i) => ({ name: i.name, value: i.value })),
    },
  ],
});

/** bars of one series (`series` names it in the legend), the category names slanted when long */
export const barOption = (items: readonly NamedCount[], series: string, color?: string): ChartOption => ({
  tooltip: { trigger: 'axis' },
  legend: { data: [series] },
  grid: { left: 48, right: 20, bottom: 50 },
  xAxis: { type: 'category', data: items.map((i) => i.name), axisLabel: { interval: 0, rotate: 20 } },
  yAxis: { type: 'value', minInterval: 1 },
  series: [
    {
      name: series,
      type: 'bar',
      data: items.map((i) => i.value),
      ...(color ? { itemStyle: { color } } : {}),
    },
  ],
});

export function ChartCard({
  title,
  items,
  kind,
  series,
  color,
  colors,
}: {
  title: string;
  items: readonly NamedCount[];
  kind: 'pie' | 'bar';
  /** the bars' name in the legend (default: the title) */
  series?: string;
  /** the bars' colour */
  color?: string;
  /** the ring's colours, slice by slice */
  colors?: string[];
}) {
  const option = useMemo(
    () => (kind === 'pie' ? pieOption(items, colors) : barOption(items, series ?? title, color)),
    [kind, items, series, title, color, colors],
  );
  return (
    <Card variant="borderless" title={title}>
      <EChart option={option} label={`${title}: ${chartSummary(items)}`} />
    </Card>
  );
}
