/**
 * Page totals, remembered for a few seconds per query shape. An exact count over a large table costs more
 * than the page itself; a total that is a few seconds old is what every paging console shows anyway.
 * Writes through the engine drop the totals of their resource at once (on this instance).
 */
const TTL_MS = 3_000;
const MAX_ENTRIES = 5_000;
const totals = new Map<string, { at: number; total: Promise<number> }>();

export function cachedCount(key: string, count: () => Promise<number>): Promise<number> {
  const hit = totals.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.total;
  if (totals.size >= MAX_ENTRIES) totals.clear();
  const total = count();
  totals.set(key, { at: Date.now(), total });
  total.catch(() => totals.delete(key));
  return total;
}

/** Forgets the totals of one resource (its keys start with `<resource>|`). */
export function forgetCounts(resource: string) {
  for (const k of totals.keys()) if (k.startsWith(`${resource}|`)) totals.delete(k);
}

export function forgetAllCounts() {
  totals.clear();
}
