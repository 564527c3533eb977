import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { requirePermission } from '../../platform/access/permissions';
import { requireCtx } from '../../platform/auth/context';
import { countBy } from '../../platform/crud/count-by';
import { readableRows } from '../../platform/crud/refs';
import { formatDateTime } from '../../platform/format';
import { ok } from '../../platform/http/envelope';
import { invalidField } from '../../platform/http/errors';
import { villagerToParty } from '../party/tables';
import { villager, villagerToCadre, visitingReception, visitingRecords } from './tables';

/**
 * Village affairs beyond the resource engine (which serves page/detail/submit/remove and Excel of every
 * village resource, and the views declared on their bindings, endpoints.ts): the overview's figures (a
 * record's uploads are every area's: modules/resource/files.ts).
 * Every query adds the constraint of the resource it reads (tenant, live rows, the caller's data scope).
 */

const int = (v: unknown) => Number(v ?? 0);

function _parse<T extends z.ZodType>(schemaOf: T, value: unknown): z.infer<T> {
  const r = schemaOf.safeParse(value);
  if (!r.success) throw invalidField(String(r.error.issues[0]?.path[0] ?? 'query'));
  return r.data;
}

/** The first day of this month and of the next, as dates in the server's time zone. */
function monthRange(now = new Date()) {
  const today = formatDateTime(now).slice(0, 10);
  const [y, m] = today.split('-').map(Number);
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return { start: `${today.slice(0, 7)}-01`, next, today };
}

export async function manageRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  const v = villager;

  /** The overview's figures (villageAffairsOverview screen), computed from the tenant's rows. */
  app.get('/villageAffairsOverview/statistics', async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'village_affairs_overview');
    const scope = await readableRows('villager', ctx);
    const { start, next } = monthRange();
    const [totals] = await db
      .select({
        population: sql<number>`count(*)::int`,
        households: sql<number>`count(distinct ${v.householdNo})::int`,
        male: sql<number>`(count(*) filter (where ${v.sex} = '1'))::int`,
        female: sql<number>`(count(*) filter (where ${v.sex} = '2'))::int`,
        povertyAlleviated: sql<number>`(count(*) filter (where ${v.povertyAlleviated} = 1))::int`,
        lowIncome: sql<number>`(count(*) filter (where ${v.lowIncome} = 1))::int`,
        disabled: sql<number>`(count(*) filter (where ${v.disabled} = 1))::int`,
        veteran: sql<number>`(count(*) filter (where ${v.veteran} = 1))::int`,
        livingAlone: sql<number>`(count(*) filter (where ${v.livingAlone} = 1))::int`,
        elderly: sql<number>`(count(*) filter (where ${v.birthDate} <= (current_date - interval '60 years')))::int`,
        lowIncomeHouseholds: sql<number>`(count(distinct ${v.householdNo}) filter (where ${v.lowIncome} = 1))::int`,
        povertyHouseholds: sql<number>`(count(distinct ${v.householdNo}) filter (where ${v.povertyAlleviated} = 1))::int`,
      })
      .from(v)
      .where(scope);
    const bucket = sql<number>`least(floor(extract(year from age(current_date, ${v.birthDate})) / 10), 8)::int`;
    const pyramidRows = await db
      .select({ sex: v.sex, bucket, n: sql<number>`count(*)::int` })
      .from(v)
      .where(and(scope, sql`${v.birthDate} is not null`))
      .groupBy(v.sex, bucket);
    // counted by dictionary field under the caller's scope, labelled in the request's language
    const [politicalStatus, villageGroups, education] = await Promise.all([
      countBy(req, 'villager', 'politicalStatus'),
      countBy(req, 'villager', 'villageGroup'),
      countBy(req, 'villager', 'education'),
    ]);
    const [cadres] = await db
      .select({ n: sql<number>`count(distinct ${villagerToCadre.villagerId})::int` })
      .from(villagerToCadre)
      .where(and(await readableRows('villagerToCadre', ctx), eq(villagerToCadre.inOffice, 1)));
    const [party] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(villagerToParty)
      .where(await readableRows('villagerToParty', ctx));
    const [visits] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(visitingRecords)
      .where(
        and(
          await readableRows('visitingRecords', ctx),
          gte(visitingRecords.visitDate, start),
          lt(visitingRecords.visitDate, next),
        ),
      );
    const [receptions] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(visitingReception)
      .where(
        and(
          await readableRows('visitingReception', ctx),
          gte(visitingReception.receptionDate, start),
          lt(visitingReception.receptionDate, next),
        ),
      );
    const ages = ['0-9', '10-19', '20-29', '30-39', '40-49', '50-59', '60-69', '70-79', '80+'];
    const pyramid = ages.map((label, i) => ({
      age: label,
      male: int(pyramidRows.find((r) => r.bucket === i && r.sex === '1')?.n),
      female: int(pyramidRows.find((r) => r.bucket === i && r.sex === '2')?.n),
    }));
    return ok(req, {
      ...Object.fromEntries(Object.entries(totals).map(([k, x]) => [k, int(x)])),
      cadres: int(cadres.n),
      partyMembers: int(party.n),
      visitsThisMonth: int(visits.n),
      receptionsThisMonth: int(receptions.n),
      month: start.slice(0, 7),
      pyramid,
      politicalStatus,
      villageGroups,
      education,
    });
  });
}
