/**
 * The bound of a value axis that compares two sides (the population pyramid: men to the left, women to the
 * right): the larger side's largest value rounded up to a round figure, so both sides share one scale.
 */
export function symmetricBound(values: readonly number[]): number {
  const top = Math.max(0, ...values.map(Math.abs));
  if (top === 0) return 1;
  const half = 10 ** Math.floor(Math.log10(top)) / 2;
  return Math.max(1, Math.ceil(top / half) * half);
}
