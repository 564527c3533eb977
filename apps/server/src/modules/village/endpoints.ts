import { POINTS_EVENT, villagerResource } from '@smart/contracts';
import { and, asc, count, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { endpoint } from '../../platform/crud/endpoints';
import { containsFilter } from '../../platform/crud/query';
import { readableRows } from '../../platform/crud/refs';
import { PageQuery, pagedList } from '../../platform/paging';
import { notDeleted } from '../../platform/sql';
import { EARNING_EVENTS } from '../mall/ledger';
import { pointsRecord } from '../mall/tables';
import { villager as v } from './tables';

/**
 * Views of village resources beyond their lists, declared on their bindings (hooks.ts): the engine mounts
 * them under the resource's path with its permission code and hands them the caller's row constraint.
 */

const int = (x: unknown) => Number(x ?? 0);
/** the villager's name as its definition declares it (a contains search, with its indexes) */
const NAME_FIELD = villagerResource.fields.find((f) => f.name === 'name');
/** a household's head: the member recorded as 户主, else the eldest */
const headName = sql<string>`(array_agg(${v.name} order by (${v.relation} = '1') desc, ${v.birthDate} asc nulls last, ${v.id} asc))[1]`;

/** `villager/households`: one row per household number, its head, its size; members through `household`. */
export const householdsEndpoint = endpoint({
  method: 'GET',
  path: 'households',
  query: PageQuery.extend({
    householdNo: z.string().max(20).optional(),
    villageGroup: z.string().max(10).optional(),
    name: z.string().max(20).optional(),
  }).strict(),
  async handler({ resource, scope, query: q }) {
    const { db } = resource;
    const where = [scope];
    if (q.householdNo) where.push(eq(v.householdNo, q.householdNo));
    if (q.villageGroup) where.push(eq(v.villageGroup, q.villageGroup));
    // households with a member of that name among the rows the caller may see
    if (q.name)
      where.push(
        sql`${v.householdNo} in (${db
          .select({ no: v.householdNo })
          .from(v)
          .where(and(scope, containsFilter(v.name, q.name, NAME_FIELD)))})`,
      );
    const filter = and(...where);
    return pagedList(q, {
      rows: db
        .select({
          householdNo: v.householdNo,
          headName,
          members: sql<number>`count(*)::int`,
          villageGroup: sql<string>`min(${v.villageGroup})`,
          address: sql<string>`min(${v.address})`,
          lowIncome: sql<number>`max(${v.lowIncome})`,
          povertyAlleviated: sql<number>`max(${v.povertyAlleviated})`,
        })
        .from(v)
        .where(filter)
        .groupBy(v.householdNo)
        .orderBy(asc(v.householdNo)),
      total: db
        .select({ total: sql<number>`count(distinct ${v.householdNo})::int` })
        .from(v)
        .where(filter),
      records: (rows) =>
        rows.map((r) => ({
          ...r,
          members: int(r.members),
          lowIncome: int(r.lowIncome),
          povertyAlleviated: int(r.povertyAlleviated),
        })),
    });
  },
});

/** `villager/household`: the members of one household together, the head first. */
export const householdEndpoint = endpoint({
  method: 'GET',
  path: 'household',
  query: z.object({ householdNo: z.string().min(1).max(20) }).strict(),
  async handler({ req, ctx, resource: m, scope, query }) {
    const rows = await m.db
      .select(m.selection)
      .from(v)
      .where(and(scope, eq(v.householdNo, query.householdNo)))
      .orderBy(sql`(${v.relation} = '1') desc`, asc(v.birthDate), asc(v.id))
      .limit(200);
    return m.output(ctx, rows as Record<string, unknown>[], req.lang);
  },
});

/**
 * `scoreRank/ranking`: the score ranking by household, read from the points ledger (one ledger: the 积分管理
 * records are its credits, beside the deeds, tasks and grants of the points mall; spending does not lower a
 * place): points earned, ledger rows, and the rank — standard competition ranking (ties share a place and
 * the next place skips: 1, 1, 3), `tied` when the place is shared (并列). Ledger rows the caller may read,
 * of villagers of the tenant still on record.
 */
export const rankingEndpoint = endpoint({
  method: 'GET',
  path: 'ranking',
  query: PageQuery.extend({
    year: z.coerce.number().int().min(2000).max(2100).optional(),
    villageGroup: z.string().max(10).optional(),
  }).strict(),
  async handler({ ctx, resource, query: q }) {
    const { db } = resource;
    const s = pointsRecord;
    const where = [
      await readableRows('pointsRecord', ctx),
      inArray(s.eventType, [...EARNING_EVENTS, POINTS_EVENT.reversal]),
      notDeleted(v.isDeleted),
      eq(v.tenantId, ctx.tenantId),
    ];
    if (q.year) where.push(gte(s.recordDate, `${q.year}-01-01`), lt(s.recordDate, `${q.year + 1}-01-01`));
    if (q.villageGroup) where.push(eq(v.villageGroup, q.villageGroup));
    const ranked = db
      .select({
        householdNo: v.householdNo,
        headName: headName.as('head_name'),
        villageGroup: sql<string>`min(${v.villageGroup})`.as('village_group'),
        points: sql<number>`sum(${s.points})::int`.as('points'),
        records: sql<number>`count(*)::int`.as('records'),
        rank: sql<number>`(rank() over (order by sum(${s.points}) desc))::int`.as('rank'),
        // another household has the same points: the place is shared (并列)
        tied: sql<boolean>`(count(*) over (partition by sum(${s.points})) > 1)`.as('tied'),
      })
      .from(s)
      .innerJoin(v, eq(v.id, s.villagerId))
      .where(and(...where))
      .groupBy(v.householdNo)
      .as('ranked');
    return pagedList(q, {
      rows: db.select().from(ranked).orderBy(asc(ranked.rank), asc(ranked.householdNo)),
      total: db.select({ total: count() }).from(ranked),
      records: (rows) =>
        rows.map((r) => ({
          ...r,
          points: int(r.points),
          records: int(r.records),
          rank: int(r.rank),
          tied: r.tied === true || String(r.tied) === 't',
        })),
    });
  },
});
