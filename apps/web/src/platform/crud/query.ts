/** The search form's values → the list's query keys (spec §7: createTime_dategt / createTime_datelt). */

import { routePrefix } from '@smart/contracts/core';
import type { Dayjs } from 'dayjs';

export type DateRange = [Dayjs | null | undefined, Dayjs | null | undefined] | null | undefined;

/**
 * The date-range filter of a list. The range picker never lets the start come after the end; should a
 * range arrive reversed anyway (typed or restored), the two ends are swapped rather than sent reversed.
 */
export function dateRangeParams(range: DateRange): Record<string, string> {
  let [start, end] = range ?? [];
  if (start && end && start.isAfter(end, 'day')) [start, end] = [end, start];
  const out: Record<string, string> = {};
  if (start) out.createTime_dategt = start.format('YYYY-MM-DD');
  if (end) out.createTime_datelt = end.format('YYYY-MM-DD');
  return out;
}

/** Drops empty values: an empty search box filters nothing. */
export function compactParams(values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === null) continue;
    const s = String(v).trim();
    if (s !== '') out[k] = s;
  }
  return out;
}

/** `/api/<service>/<path>`; a resource whose path is empty (users) lives at the service root. */
export function resourceBase(def: { service: string; path: string }): string {
  return `/api/${def.service}${routePrefix(def)}`;
}
