/** What a chart's legend names, for readers of the page (a canvas has no text). */

type Named = string | number | { name?: string | number } | null | undefined;
const nameOf = (d: Named) => (d !== null && typeof d === 'object' ? d.name : d);
const many = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

/**
 * The names a chart's legend shows, read off its option as echarts would: the legend's own `data`, else
 * each pie's slices and each other series' name. Empty when the chart has no legend.
 */
export function legendNames(option: Record<string, unknown>): string[] {
  const legend = many(option.legend as { data?: Named[] } | { data?: Named[] }[] | undefined)[0];
  if (!legend) return [];
  const series = many(option.series as { type?: string; name?: string; data?: Named[] }[] | undefined);
  const names = legend.data
    ? legend.data.map(nameOf)
    : series.flatMap((s) => (s.type === 'pie' ? (s.data ?? []).map(nameOf) : [s.name]));
  return [...new Set(names.filter((n) => n !== undefined && n !== null && n !== '').map(String))];
}
