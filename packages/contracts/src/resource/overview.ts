/**
 * What an area's overview declaration (`OverviewDecl`) formats its figures with. Not part of the light half
 * of the contracts: only the areas' own modules use it, and they load with their pages.
 */
/** A share as an overview shows it, to a tenth of a percent (0% of nothing). */
export const percentOf = (part: number | undefined, whole: number | undefined): string =>
  whole ? `${Math.round(((part ?? 0) / whole) * 1000) / 10}%` : '0%';

/** A year as an overview shows it: text, so that it is never grouped like a quantity (2025, not 2,025). */
export const yearText = (year: number | string | undefined): string | undefined =>
  year === undefined || year === null ? undefined : String(year);

/** An amount in yuan as an overview shows it: grouped, two decimals, in the reader's language. */
export const yuanText = (n: number | undefined, lang: 'zh' | 'en'): string | undefined =>
  n === undefined
    ? undefined
    : n.toLocaleString(lang === 'en' ? 'en-GB' : 'zh-CN', {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
