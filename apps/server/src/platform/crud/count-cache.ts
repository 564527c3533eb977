import type { RequestContext } from '../auth/context';

/**
 * Page totals, remembered for a few seconds per query shape. An exact count over a large table costs more
 * than the page itself; a total that is a few seconds old is what every paging console shows anyway.
 * Writes through the engine drop the totals of their resource at once (on this instance).
 *
 * When a total is older than that, the next request still answers it and starts one recount in the
 * background: nobody waits for a recount but the first request of a shape (or the first after a write).
 * Given the versions of the tables it counts (`version`, platform/db/changes.ts), a total whose tables are
 * unchanged is not recounted until the last seconds of UNCHANGED_MAX_MS: many distinct filters over a table
 * nobody writes (a county's villagers searched all morning) cost one count each, not one every few seconds.
 * Otherwise a total older than STALE_MAX_MS is never answered; it is counted afresh while the request waits.
 */
const TTL_MS = 3_000;
const STALE_MAX_MS = 60_000;
/**
 * how long a total whose tables are unchanged is answered without a recount (what no table holds, such as a
 * grant, drops every total at once when it changes: dropAccessCaches)
 */
const UNCHANGED_MAX_MS = 10 * 60_000;
const MAX_ENTRIES = 5_000;

interface Entry {
  at: number;
  total: Promise<number>;
  /** the last total that arrived, answered while a recount runs */
  known?: number;
  /** the versions of its tables when it was counted (undefined: unknown) */
  version?: string;
  refreshing?: boolean;
}
const totals = new Map<string, Entry>();

function recount(key: string, hit: Entry, count: () => Promise<number>, version?: () => string | undefined) {
  hit.refreshing = true;
  const asOf = version?.(); // before the count runs: a commit meanwhile leaves it unconfirmed
  count().then(
    (n) => {
      // a write may have dropped the entry meanwhile: its recount starts afresh, not from this one
      if (totals.get(key) === hit)
        totals.set(key, { at: Date.now(), total: Promise.resolve(n), known: n, version: asOf });
    },
    () => {
      hit.refreshing = false;
    },
  );
}

export function cachedCount(
  key: string,
  count: () => Promise<number>,
  version?: () => string | undefined,
): Promise<number> {
  const hit = totals.get(key);
  const now = Date.now();
  if (hit && now - hit.at < TTL_MS) return hit.total;
  const age = hit ? now - hit.at : 0;
  const unchanged = hit?.version !== undefined && hit.version === version?.();
  if (hit && hit.known !== undefined && (age < STALE_MAX_MS || (unchanged && age < UNCHANGED_MAX_MS))) {
    // unchanged: recounted only in its last seconds, so that a total asked for all along never makes one wait
    if (!hit.refreshing && (!unchanged || age >= UNCHANGED_MAX_MS - TTL_MS))
      recount(key, hit, count, version);
    return Promise.resolve(hit.known);
  }
  if (totals.size >= MAX_ENTRIES) totals.clear();
  const asOf = version?.();
  const entry: Entry = { at: now, total: count(), version: asOf };
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
