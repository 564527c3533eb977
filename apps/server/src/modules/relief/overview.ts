import {
  RELIEF_CLOCKS,
  RELIEF_OPEN_STAGES,
  RELIEF_STAGE,
  type ReliefCount,
  type ReliefOverview,
} from '@smart/contracts';
import { and, inArray, sql } from 'drizzle-orm';
import type { OverviewCall } from '../../platform/area';
import { countBy } from '../../platform/crud/count-by';
import { readableRows } from '../../platform/crud/refs';
import { dictLabels } from '../../platform/dicts';
import { today } from '../../platform/format';
import { withoutMeasure } from './measures';
import { preventionPoverty as h, supportingMeasures as s } from './tables';

/**
 * The relief overview (防返贫概览): figures computed from the rows the caller may read of each resource it
 * counts (tenant, live rows, data scope): households by kind, stage and risk, the identifications under
 * way and those past the township's fifteen days, the monitored households without a measure in progress,
 * and the measures' amounts by kind.
 */

const int = (x: unknown) => Number(x ?? 0);

export async function reliefOverview({ req, ctx, db }: OverviewCall) {
  const [households, measures] = await Promise.all([
    readableRows('preventionPoverty', ctx),
    readableRows('supportingMeasures', ctx),
  ]);
  const deadline = sql`(${h.applyDate} + ${RELIEF_CLOCKS.identifyDays}::int)`;
  const open = inArray(h.stage, [...RELIEF_OPEN_STAGES]);
  const [[totals], byKind, byStage, riskRows, amountRows, labels] = await Promise.all([
    db
      .select({
        households: sql<number>`count(*)::int`,
        monitored: sql<number>`(count(*) filter (where ${h.stage} = ${RELIEF_STAGE.monitored}))::int`,
        identifying: sql<number>`(count(*) filter (where ${open}))::int`,
        overdue: sql<number>`(count(*) filter (where (${open} and ${deadline} < ${today()}::date)
          or ${h.identifyDate} > ${deadline}))::int`,
        riskRemoved: sql<number>`(count(*) filter (where ${h.stage} = ${RELIEF_STAGE.riskRemoved}))::int`,
        withoutMeasure: sql<number>`(count(*) filter (where ${withoutMeasure}))::int`,
      })
      .from(h)
      .where(households),
    countBy(req, 'preventionPoverty', 'monitorKind'),
    countBy(req, 'preventionPoverty', 'stage'),
    db
      .select({
        key: sql<string>`k.key`,
        n: sql<number>`count(*)::int`,
      })
      .from(h)
      .innerJoin(sql`unnest(string_to_array(${h.riskKinds}, ',')) as k(key)`, sql`true`)
      .where(households)
      .groupBy(sql`k.key`),
    db
      .select({ key: s.measureKind, amount: sql<string>`coalesce(sum(${s.amount}), 0)` })
      .from(s)
      .where(and(measures))
      .groupBy(s.measureKind),
    dictLabels(db, ['relief_risk_kind', 'relief_measure_kind'], req.lang),
  ]);
  const labelled = (code: string, rows: { key: unknown; value: number }[]): ReliefCount[] =>
    (labels.get(code) ?? []).map((e) => ({
      key: e.key,
      name: e.value,
      value: rows.find((r) => String(r.key) === e.key)?.value ?? 0,
    }));
  const amounts = amountRows.map((r) => ({ key: r.key, value: Number(r.amount) }));
  const answer: ReliefOverview = {
    households: int(totals.households),
    monitored: int(totals.monitored),
    identifying: int(totals.identifying),
    overdue: int(totals.overdue),
    withoutMeasure: int(totals.withoutMeasure),
    riskRemoved: int(totals.riskRemoved),
    measureAmount: Math.round(amounts.reduce((sum, r) => sum + r.value, 0) * 100) / 100,
    byKind,
    byStage,
    byRisk: labelled(
      'relief_risk_kind',
      riskRows.map((r) => ({ key: r.key, value: int(r.n) })),
    ),
    amountByMeasure: labelled('relief_measure_kind', amounts),
  };
  return answer;
}
