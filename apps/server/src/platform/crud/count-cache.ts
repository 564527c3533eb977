import type { RequestContext } from '../auth/context';

/**
 * Page totals, remembered for a few seconds per query shape. An exact count over a large table costs more
 * than the page itself; a total that is a few seconds old is what every paging console shows anyway.
 * Writes through the engine drop the totals of their resource at once (on this instance).
 *
 * When a total is older than that, the next request still answers it and starts one recount in the
 * background: nobody waits for a recount but the first request of a shape (or the first after a write).
 * A total older than STALE_MAX_MS is never answered; it is counted afresh while the request waits.
 */
const TTL_MS = 3_000;
const STALE_MAX_MS = 60_000;
const MAX_ENTRIES = 5_000;

interface Entry {
  at: number;
  total: Promise<number>;
  /** the last total that arrived, answered while a recount runs */
  known?: number;
  refreshing?: boolean;
}
const totals = new Map<string, Entry>();

export function cachedCount(key: string, count: () => Promise<number>): Promise<number> {
  const hit = totals.get(key);
  const now = Date.now();
  if (hit && now - hit.at < TTL_MS) return hit.total;
  if (hit && hit.known !== undefined && now - hit.at < STALE_MAX_MS) {
    if (!hit.refreshing) {
      hit.refreshing = true;
      count().then(
        (n) => {
          // a write may have dropped the entry meanwhile: its recount starts afresh, not from this one
          if (totals.get(key) === hit)
            totals.set(key, { at: Date.now(), total: Promise.resolve(n), known: n });
        },
        () => {
          hit.refreshing = false;
        },
      );
    }
    return Promise.resolve(hit.known);
  }
  if (totals.size >= MAX_ENTRIES) totals.clear();
  const entry: Entry = { at: now, total: count() };
  totals.set(key, entry);
  entry.total.then(
    (n) => {
      entry.known = n;
    },
    () => {
      if (totals.get(key) === entry) totals.delete(key);
    },
  );
  return entry.total;
}

/** Forgets the totals of one resource (its keys start with `<resource>|`). */
export function forgetCounts(resource: string) {
  for (const k of totals.keys()) if (k.startsWith(`${resource}|`)) totals.delete(k);
}

export function forgetAllCounts() {
  totals.clear();
}

/** Totals depend on who asks (tenant, roles, user, dept) and on the filters, not on the page. */
export function countKey(resource: string, ctx: RequestContext, query: Record<string, unknown>): string {
  const {
    current: _c,
    size: _s,
    page: _p,
    currentPage: _cp,
    pageSize: _ps,
    ascs: _a,
    descs: _d,
    ...filters
  } = query;
  return `${resource}|${ctx.tenantId}|${ctx.roleIds.join(',')}|${ctx.userId}|${ctx.deptId}|${JSON.stringify(filters)}`;
}
