/**
 * A chart's legend: what it names, for readers of the page (a canvas has no text), and where it goes, for
 * every chart at once — whole (wrapped onto as many rows as its names need, never paged or cut off) and
 * clear of the plot and of the axis titles.
 */

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

// echarts' legend defaults: 25 px symbol, 5 px to its text, 10 px between items and rows, 14 px rows, 5 px padding
const SYMBOL = 30;
const GAP = 10;
const ROW = 14;
const PAD = 5;

/** The width of a legend text in echarts' 12 px font, a little generous: CJK 12 px, Latin about 7 px. */
export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u2e80-\u9fff\uff00-\uffef]/.test(ch) ? 12 : 7;
  return width;
}

/** How many rows a horizontal legend of `names` fills in `width` px (echarts wraps a plain legend). */
export function legendRows(names: readonly string[], width: number): number {
  const room = Math.max(1, width - 2 * PAD);
  let rows = names.length ? 1 : 0;
  let used = 0;
  for (const name of names) {
    const item = SYMBOL + textWidth(name);
    if (used > 0 && used + GAP + item > room) {
      rows += 1;
      used = item;
    } else used += (used > 0 ? GAP : 0) + item;
  }
  return rows;
}

export const legendHeight = (rows: number) => (rows ? rows * ROW + (rows - 1) * GAP + 2 * PAD : 0);

type Option = Record<string, unknown>;
type Axis = { name?: string; nameLocation?: string; type?: string };
type Series = { type?: string; radius?: unknown; center?: unknown };

/** a radius given as a percentage, as a share (0–1); a number or nothing takes `fallback` */
const share = (v: unknown, fallback: number) =>
  typeof v === 'string' && v.endsWith('%') ? Number.parseFloat(v) / 100 : fallback;

/**
 * `option` laid out for a chart of `width` × `height` px: its legend plain (wrapped, whole) — at the top of
 * a chart with axes, the plot starting below it and below a vertical axis' title (which echarts draws above
 * the plot); under a ring, the ring sized to fit above it. A chart without a legend is left as it is.
 */
export function laidOut(option: Option, width: number, height: number): Option {
  const names = legendNames(option);
  const legend = many(option.legend as Option | Option[] | undefined)[0];
  if (!legend || !names.length || width <= 0) return option;
  // a legend that would take more than 40 % of the chart pages instead (its arrows say there is more),
  // so the plot never vanishes under it
  const wrapped = legendHeight(legendRows(names, width)) <= height * 0.4;
  const room = wrapped ? legendHeight(legendRows(names, width)) : legendHeight(1);
  const type = wrapped ? 'plain' : 'scroll';
  const series = many(option.series as Series[] | undefined);
  const axes = option.xAxis !== undefined || option.yAxis !== undefined;
  // the position keys are the layout's own: echarts would let a kept `bottom` win over `top`
  const { top: _t, bottom: _b, type: _type, ...rest } = legend;
  if (!axes && series.some((s) => s.type === 'pie')) {
    // echarts reads a ring's radius as a share of half the smaller side: here, of the room above the legend
    const free = Math.max(40, height - room - 2 * PAD);
    const half = Math.min(width, free) / 2;
    return {
      ...option,
      legend: { ...rest, type, bottom: 0, left: 'center' },
      series: series.map((s) => {
        if (s.type !== 'pie') return s;
        const radius = many(s.radius as unknown[] | undefined);
        const [inner, outer] = radius.length > 1 ? radius : [0, radius[0]];
        return {
          ...s,
          center: ['50%', Math.round(free / 2)],
          radius: [Math.round(share(inner, 0) * half), Math.round(share(outer, 0.75) * half)],
        };
      }),
    };
  }
  // a vertical axis' title sits above the plot: its line (12 px) and echarts' 15 px name gap
  const vertical = many(option.yAxis as Axis | Axis[] | undefined).some(
    (a) => a.name && (a.nameLocation === undefined || a.nameLocation === 'end'),
  );
  const grid = (many(option.grid as Option | Option[] | undefined)[0] ?? {}) as Option;
  const top = room + (vertical ? 15 + 12 + 6 : 8);
  const given = typeof grid.top === 'number' ? grid.top : 0;
  return {
    ...option,
    legend: { ...rest, type, top: 0 },
    grid: { ...grid, top: Math.max(given, top) },
  };
}
