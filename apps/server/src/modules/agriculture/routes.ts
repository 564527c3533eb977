import { AGRICULTURE_OVERVIEW, type AgriIncomeYear, type AgriYearCount } from '@smart/contracts';
import { and, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { requireAnyPermission } from '../../platform/access/permissions';
import { requireCtx } from '../../platform/auth/context';
import { readableRows } from '../../platform/crud/refs';
import { ok } from '../../platform/http/envelope';
import { villagerIncome as inc } from '../village/tables';
import { cooperation as coop } from './tables';

/**
 * The home page's agriculture figures (spec §7 `common/index`), each over the rows the caller may read of
 * the resource it counts (tenant, live rows, data scope): certifications per certified year (cooperatives),
 * and per-capita income by year (village affairs' household incomes). Asked for by the agriculture
 * overview's code or the counted resource's own menu code. The harmful-organism figures
 * (`other/harmful`, `today/harmful`) are the telemetry core's.
 */
export async function agricultureRoutes(app: FastifyInstance) {
  const { db } = app.deps;

  app.get('/common/index/year/cer', async (req) => {
    const ctx = requireCtx(req);
    await requireAnyPermission(db, req, [AGRICULTURE_OVERVIEW.code, 'cooperation']);
    const rows = await db
      .select({
        year: coop.certifiedYear,
        n: sql<number>`sum(cardinality(string_to_array(${coop.certifications}, ',')))::int`,
      })
      .from(coop)
      .where(
        and(
          await readableRows('cooperation', ctx),
          isNotNull(coop.certifiedYear),
          sql`coalesce(${coop.certifications}, '') <> ''`,
        ),
      )
      .groupBy(coop.certifiedYear)
      .orderBy(coop.certifiedYear);
    const answer: AgriYearCount[] = rows.map((r) => ({ year: Number(r.year), value: Number(r.n ?? 0) }));
    return ok(req, answer);
  });

  app.get('/common/index/income/per', async (req) => {
    const ctx = requireCtx(req);
    await requireAnyPermission(db, req, [AGRICULTURE_OVERVIEW.code, 'villager_income']);
    const rows = await db
      .select({
        year: inc.year,
        households: sql<number>`count(*)::int`,
        persons: sql<number>`coalesce(sum(${inc.familySize}), 0)::int`,
        total: sql<string>`coalesce(sum(${inc.totalIncome}), 0)`,
      })
      .from(inc)
      .where(await readableRows('villagerIncome', ctx))
      .groupBy(inc.year)
      .orderBy(inc.year);
    const answer: AgriIncomeYear[] = rows.map((r) => ({
      year: Number(r.year),
      households: Number(r.households),
      persons: Number(r.persons),
      perCapita: Number(r.persons) ? Math.round((Number(r.total) / Number(r.persons)) * 100) / 100 : 0,
    }));
    return ok(req, answer);
  });
}
