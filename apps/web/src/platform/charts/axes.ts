/**
 * The value axis of a chart that compares two sides (the population pyramid: men to the left, women to the
 * right): one bound for both sides, a whole number of round steps (1, 2 or 5 × 10ⁿ, about three a side) so
 * the ticks fall evenly and the bound itself is a tick.
 */
export function symmetricAxis(values: readonly number[]): { bound: number; step: number } {
  const top = Math.max(0, ...values.map(Math.abs));
  if (top === 0) return { bound: 1, step: 1 };
  const rough = top / 3;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? magnitude * 10);
  return { bound: Math.ceil(top / step) * step, step };
}
