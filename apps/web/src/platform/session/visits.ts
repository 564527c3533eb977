/**
 * How often the signed-in user opened each screen (a navigation that shows a tab other than the one shown
 * before), remembered in this browser per tenant and user: the home's most visited shortcuts.
 */
import { readItem, writeItem } from '../storage';

export type VisitCounts = Record<string, number>;

const KEPT = 40;
const keyOf = (tenantId: string, userId: string) => `saber-visits:${tenantId}:${userId}`;

export function readVisits(tenantId: string, userId: string): VisitCounts {
  try {
    const parsed = JSON.parse(readItem(keyOf(tenantId, userId)) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as VisitCounts) : {};
  } catch {
    return {};
  }
}

let last = '';
/** Counts a visit of `value` (a tab's value), unless it is the screen counted last. */
export function countVisit(tenantId: string, userId: string, value: string): void {
  if (!userId || !value || value === last) return;
  last = value;
  const counts = readVisits(tenantId, userId);
  counts[value] = (counts[value] ?? 0) + 1;
  const kept = Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .slice(0, KEPT);
  writeItem(keyOf(tenantId, userId), JSON.stringify(Object.fromEntries(kept)));
}
