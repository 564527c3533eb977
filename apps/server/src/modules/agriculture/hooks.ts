import { AGRI_OWNER_KIND, type PlotHistoryItem, polygonMu, stepOverdue } from '@smart/contracts';
import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import type { MountedResource, ResourceHooks, Row } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { mountedResource, readableRows } from '../../platform/crud/refs';
import { updateRow } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { today } from '../../platform/format';
import { notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { notDeleted } from '../../platform/sql';
import { mapSettings } from './map-settings';
import { plan, planDetail, plantRecord } from './tables';

/**
 * What differs from the engine's pattern in smart agriculture: the family's route names (`upsert`,
 * `delete/{id}`, `delete/remark`, `del/{id}`: the engine's aliases of submit and remove); a plot's area in
 * 亩 computed from its polygon and who holds it; a plan written with its steps (rows of planDetail, through
 * that resource's write path); a farming record that ticks the plan step it did and un-ticks it when it
 * changes or goes; a plot's history; seedlings never more left than received.
 */

const has = (o: Record<string, unknown>, k: string) => Object.hasOwn(o, k);
/** a value as written: the record's when it sends one, else the row's as it was */
const writtenValue = (record: Record<string, unknown>, original: Row | undefined, k: string) =>
  has(record, k) ? record[k] : original?.[k];

function plotHooks(db: Db): ResourceHooks {
  return {
    endpoints: [
      endpoint({
        method: 'GET',
        path: 'map/settings',
        codeSuffix: '',
        query: z.object({}).strict(),
        handler: ({ ctx }) => mapSettings(db, ctx.tenantId),
      }),
    ],
    listAliases: ['list'],
    submitAliases: ['upsert'],
    removeRoutes: [
      // the family's removal with its reason, kept on the row (deleteRemark)
      {
        method: 'GET',
        path: 'delete/remark',
        idsParam: 'id',
        remark: { param: 'remark', field: 'deleteRemark', required: true },
      },
      { method: 'GET', path: 'delete/{id}' },
    ],
    beforeWrite(_ctx, record, _mode, _id, original) {
      // the area follows the polygon (the form showed the same number, computed by the same function)
      if (has(record, 'polygon')) {
        const mu = polygonMu(record.polygon);
        record.area = mu === null ? null : mu.toFixed(2);
      }
      // who holds it: a household names its villager, a cooperative its cooperative (the definition's
      // `requiredWhen`, checked on both ends); the other is cleared
      const kind = String(writtenValue(record, original, 'ownerKind') ?? '');
      if (kind === AGRI_OWNER_KIND.household) record.cooperationId = null;
      else if (kind === AGRI_OWNER_KIND.cooperative) record.ownerVillagerId = null;
      else if (kind === AGRI_OWNER_KIND.collective) {
        record.ownerVillagerId = null;
        record.cooperationId = null;
      }
    },
  };
}

/**
 * Plans: the family's route names, and one step's removal by the plan's delete code. The steps themselves are
 * the plan's children (`children` on its definition): sent, answered, written and removed with it by the
 * engine, each through planDetail's own write path.
 */
function planHooks(): ResourceHooks {
  return {
    listAliases: ['list'],
    submitAliases: ['upsert'],
    removeRoutes: [{ method: 'GET', path: 'delete' }],
    endpoints: [
      // one step of a plan (GET delete/planDetail?id=): planDetail's removal, with the plan's delete code
      endpoint({
        method: 'GET',
        path: 'delete/planDetail',
        codeSuffix: '_delete',
        query: z.object({ id: idString }).strict(),
        async handler({ ctx, query }) {
          await mountedResource('planDetail').remove(ctx, [query.id]);
          return true;
        },
      }),
    ],
  };
}

/** a step answers whether it is overdue (past its planned day and not done) */
const planDetailHooks = (): ResourceHooks => ({
  toRow(row) {
    row.overdue = stepOverdue(row, today());
    return row;
  },
});

/** the step a record ticked (its planDetail row names the record) */
const tickedBeside = sql`(select d.id::text from ${planDetail} d
  where d.record_id = "hope_plant_record"."id" and d.is_deleted = 0 order by d.id limit 1)`;

/** Un-ticks the steps these records ticked (through planDetail's write path). */
async function untick(ctx: RequestContext, tx: Db, recordIds: string[]) {
  const d = mountedResource('planDetail');
  const scope = await d.constraint(ctx, tx);
  const ticked = await tx
    .select({ id: planDetail.id })
    .from(planDetail)
    .where(and(inArray(planDetail.recordId, recordIds), scope));
  for (const { id } of ticked)
    await updateRow(d, ctx, tx, String(id), { doneDate: null, recordId: null }, scope);
  if (ticked.length) d.changed();
}

/**
 * Ticks the plot's earliest open step of the record's operation whose plan covers the record's day (a plan
 * of that plot and year): done on the record's day, by this record.
 */
async function tick(ctx: RequestContext, tx: Db, record: Row) {
  const d = mountedResource('planDetail');
  const scope = await d.constraint(ctx, tx);
  const plans = await readableRows('plan', ctx, tx);
  const day = String(record.workDate ?? '').slice(0, 10);
  if (!day || !record.plotId || !record.operation) return;
  const [step] = await tx
    .select({ id: planDetail.id })
    .from(planDetail)
    .innerJoin(plan, eq(plan.id, planDetail.planId))
    .where(
      and(
        scope,
        plans,
        eq(plan.plotId, String(record.plotId)),
        eq(plan.year, Number(day.slice(0, 4))),
        eq(planDetail.operation, String(record.operation)),
        isNull(planDetail.doneDate),
        isNull(planDetail.recordId),
      ),
    )
    .orderBy(asc(planDetail.plannedDate), asc(planDetail.id))
    .limit(1)
    .for('update', { of: planDetail });
  if (!step) return;
  await updateRow(d, ctx, tx, String(step.id), { doneDate: day, recordId: String(record.id) }, scope);
  d.changed();
}

function recordHooks(db: Db): ResourceHooks {
  return {
    listAliases: ['list'],
    submitAliases: ['upsert'],
    removeRoutes: [{ method: 'GET', path: 'delete' }],
    beside: { planDetailId: tickedBeside },
    async afterChange(ctx, changes, tx) {
      for (const c of changes) {
        if (c.mode === 'update') await untick(ctx, tx, [String(c.row.id)]);
        await tick(ctx, tx, c.row);
      }
    },
    afterDelete: (ctx, ids, tx) => untick(ctx, tx, ids),
    endpoints: [
      endpoint({
        method: 'GET',
        path: 'plot/history',
        codeSuffix: '',
        query: z.object({ plotId: idString }).strict(),
        async handler({ ctx, req, resource, scope, query }) {
          return plotHistory(db, ctx, req.lang, resource, scope, query.plotId);
        },
      }),
    ],
  };
}

/**
 * A plot's history: its records and its plans' steps in time order (a step at its done day, else its
 * planned day), each read within the caller's constraint on its resource; a plot the caller cannot read is
 * not found.
 */
async function plotHistory(
  db: Db,
  ctx: RequestContext,
  lang: 'zh' | 'en',
  records: MountedResource,
  recordScope: SQL,
  plotId: string,
): Promise<PlotHistoryItem[]> {
  const plots = mountedResource('plot');
  const [found] = await db
    .select({ id: plots.cols.id })
    .from(plots.table)
    .where(and(eq(plots.cols.id, plotId), await plots.constraint(ctx)))
    .limit(1);
  if (!found) throw notFound();
  const d = mountedResource('planDetail');
  const [recordRows, stepRows] = await Promise.all([
    db
      .select(records.selection)
      .from(plantRecord)
      .where(and(eq(plantRecord.plotId, plotId), recordScope))
      .limit(1000),
    (async () =>
      db
        .select({ ...d.selection, planName: plan.name })
        .from(planDetail)
        .innerJoin(plan, eq(plan.id, planDetail.planId))
        .where(
          and(
            eq(plan.plotId, plotId),
            notDeleted(plan.isDeleted),
            await d.constraint(ctx),
            await readableRows('plan', ctx),
          ),
        )
        .limit(1000))(),
  ]);
  const recs = await records.output(ctx, recordRows as Row[], lang);
  const steps = await d.output(ctx, stepRows as Row[], lang);
  const planNames = new Map((stepRows as Row[]).map((r) => [String(r.id), String(r.planName ?? '')]));
  const items: PlotHistoryItem[] = [
    ...recs.map(
      (r): PlotHistoryItem => ({
        kind: 'record',
        id: String(r.id),
        date: String(r.workDate),
        operation: String(r.operation),
        operationName: String(r.operationName ?? r.operation),
        operatorName: String(r.operatorName ?? ''),
        inputs: (r.inputs as string | null) ?? null,
      }),
    ),
    ...steps.map(
      (s): PlotHistoryItem => ({
        kind: 'step',
        id: String(s.id),
        date: String(s.doneDate ?? s.plannedDate),
        operation: String(s.operation),
        operationName: String(s.operationName ?? s.operation),
        planName: planNames.get(String(s.id)) ?? '',
        content: (s.content as string | null) ?? null,
        doneDate: (s.doneDate as string | null) ?? null,
        overdue: s.overdue === true,
        recordId: (s.recordId as string | null) ?? null,
      }),
    ),
  ];
  // in time order; on one day the plan's step before the record that did it
  return items.sort(
    (a, b) => a.date.localeCompare(b.date) || (a.kind === b.kind ? 0 : a.kind === 'step' ? -1 : 1),
  );
}

/** Seedlings: the family's route names (never more left than received is the definition's `notAbove`). */
const seedlingHooks = (): ResourceHooks => ({
  submitAliases: ['upsert'],
  removeRoutes: [{ method: 'GET', path: 'del/{id}' }],
});

/** Every agriculture resource's table and hooks, for modules/resources.ts. */
export function agricultureHooks(db: Db): Record<string, ResourceHooks> {
  return {
    plot: plotHooks(db),
    plan: planHooks(),
    planDetail: planDetailHooks(),
    plantRecord: recordHooks(db),
    seedling: seedlingHooks(),
  };
}
