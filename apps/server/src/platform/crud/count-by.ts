import { and, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { requireCtx } from '../auth/context';
import { dictLabels } from '../dicts';
import { mountedResource } from './refs';

/** One bar or slice of a dashboard's chart: a dictionary entry and how many rows hold it. */
export interface CountedEntry {
  /** the dictionary key ('' for the rows whose value is missing or not in the dictionary) */
  key: string;
  /** the entry's value in the request's language */
  name: string;
  value: number;
}

const NOT_RECORDED = { zh: '未登记', en: 'Not recorded' } as const;

/**
 * The rows of a mounted resource counted by one of its dictionary fields, for dashboards: only the rows the
 * caller may read (the resource's constraint: tenant, live rows, data scope), plus `where` if given. Every
 * entry of the dictionary is answered, in its order, with 0 where no row holds it, labelled in the
 * request's language; rows with no value or a value outside the dictionary are counted last as "not
 * recorded" (only when there are some).
 */
export async function countBy(
  req: FastifyRequest,
  resource: string,
  field: string,
  where?: SQL,
): Promise<CountedEntry[]> {
  const ctx = requireCtx(req);
  const m = mountedResource(resource);
  const f = m.def.fields.find((x) => x.name === field);
  if (!f?.dict || f.type === 'dictMulti')
    throw new Error(`${resource}.${field} is not a single-valued dictionary field`);
  const col = m.cols[field];
  const [rows, labels] = await Promise.all([
    m.db
      .select({ key: col, n: sql<number>`count(*)::int` })
      .from(m.table)
      .where(and(await m.constraint(ctx), where))
      .groupBy(col),
    dictLabels(m.db, [f.dict], req.lang),
  ]);
  const entries = labels.get(f.dict) ?? [];
  const counts = new Map<string, number>();
  for (const r of rows) {
    const key = r.key === null || r.key === undefined ? '' : String(r.key);
    counts.set(key, (counts.get(key) ?? 0) + Number(r.n ?? 0));
  }
  const out = entries.map((e) => ({ key: e.key, name: e.value, value: counts.get(e.key) ?? 0 }));
  const known = new Set(entries.map((e) => e.key));
  let other = 0;
  for (const [key, n] of counts) if (!known.has(key)) other += n;
  if (other) out.push({ key: '', name: NOT_RECORDED[req.lang], value: other });
  return out;
}
