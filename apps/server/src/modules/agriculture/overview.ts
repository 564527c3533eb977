import type { AgriIncomeYear, AgriYearCount } from '@smart/contracts';
import { and, isNotNull, sql } from 'drizzle-orm';
import type { OverviewCall } from '../../platform/area';
import { readableRows } from '../../platform/crud/refs';
import { villagerIncome as inc } from '../village/tables';
import { cooperation as coop } from './tables';

/**
 * The home page's agriculture figures (spec §7 `common/index`), each over the rows the caller may read of
 * the resource it counts (tenant, live rows, data scope): certifications per certified year (cooperatives),
 * and per-capita income by year (village affairs' household incomes). Asked for by the agriculture
 * overview's code or the counted resource's own menu code. The harmful-organism figures
 * (`other/harmful`, `today/harmful`) are the telemetry core's.
 */
export async function certificationsByYear({ ctx, db }: OverviewCall) {
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
  return answer;
}

export async function incomeByYear({ ctx, db }: OverviewCall) {
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
  return answer;
}
