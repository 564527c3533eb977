import { RELIEF_STAGE, reliefClocks } from '@smart/contracts';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../platform/config';
import type { ResourceHooks } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { updateRow } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { today } from '../../platform/format';
import { ApiError, FieldInputError, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { notDeleted, qualified } from '../../platform/sql';
import { liveUsersOf } from '../flow/approvers';
import { forgetWorkCounts } from '../flow/routes';
import { flowTransaction, startableDefinition, startDefinition } from '../flow/service';
import { villager, villagerIncome } from '../village/tables';
import { withoutMeasure } from './measures';
import { RELIEF_PROCESS_DEFINITION_ID } from './process';
import { preventionPoverty as h, reliefIncomeLine } from './tables';

/**
 * What differs from the engine's pattern in poverty relief: a monitored household answers its clocks and
 * its latest per-capita income against the tenant's line; it is identified through the workflow
 * (`identify`), its risk removed with a date and a reason (`remove-risk`); the monitored households
 * without a measure under way are a view of their own (`without-measure`). A measure is for a household
 * under monitoring.
 */

const YMD = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)));

/** the household's latest income year: its per-capita income, and the line the tenant set for that year */
const latestIncome = sql`(select i.year from ${villagerIncome} i where i.villager_id = ${qualified(h.householderId)}
  and i.tenant_id = ${qualified(h.tenantId)} and i.is_deleted = 0 order by i.year desc limit 1)`;
const beside = {
  incomeYear: latestIncome,
  perCapitaIncome: sql`(select i.per_capita from ${villagerIncome} i where i.villager_id = ${qualified(h.householderId)}
    and i.tenant_id = ${qualified(h.tenantId)} and i.is_deleted = 0 order by i.year desc limit 1)`,
  incomeLine: sql`(select l.line from ${reliefIncomeLine} l where l.tenant_id = ${qualified(h.tenantId)}
    and l.is_deleted = 0 and l.year = ${latestIncome} limit 1)`,
};

const identifyEndpoint = (db: Db, config: Config) =>
  endpoint({
    method: 'POST',
    path: 'identify',
    codeSuffix: '_identify',
    query: z.object({}).strict(),
    body: z.object({ id: idString, taskUser: idString, townshipUser: idString }).strict(),
    async handler({ ctx, req, resource: m, scope, body }) {
      const def = await startableDefinition(db, ctx, RELIEF_PROCESS_DEFINITION_ID);
      const started = await flowTransaction(
        db,
        async (tx) => {
          const [row] = await tx
            .select({ stage: h.stage, processInstanceId: h.processInstanceId })
            .from(h)
            .where(and(scope, eq(h.id, body.id)))
            .limit(1)
            .for('update');
          if (!row) throw notFound();
          if (row.stage !== RELIEF_STAGE.villageReview || row.processInstanceId)
            throw new ApiError(409, 'reliefIdentifying');
          const live = await liveUsersOf(tx, ctx.tenantId, [body.taskUser, body.townshipUser]);
          for (const name of ['taskUser', 'townshipUser'] as const)
            if (!live.has(body[name]))
              throw new FieldInputError(name, { zh: '办理人不存在', en: 'No such user' });
          const run = await startDefinition(tx, ctx, def, {
            businessId: body.id,
            variables: {
              taskUser: body.taskUser,
              townshipUser: body.townshipUser,
              noticeDuration: config.RELIEF_NOTICE_DURATION,
            },
          });
          await updateRow(m, ctx, tx, body.id, { processInstanceId: run.processInstanceId }, scope);
          return run;
        },
        req.log,
      );
      m.changed();
      forgetWorkCounts();
      return started;
    },
  });

const removeRiskEndpoint = (db: Db) =>
  endpoint({
    method: 'POST',
    path: 'remove-risk',
    codeSuffix: '_remove_risk',
    query: z.object({}).strict(),
    body: z
      .object({ id: idString, riskRemovedDate: YMD, riskRemovedReason: z.string().trim().min(1).max(200) })
      .strict(),
    async handler({ ctx, resource: m, scope, body }) {
      const done = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [row] = await tx
          .select({ stage: h.stage, identifyDate: h.identifyDate })
          .from(h)
          .where(and(scope, eq(h.id, body.id)))
          .limit(1)
          .for('update');
        if (!row) throw notFound();
        if (row.stage !== RELIEF_STAGE.monitored) throw new ApiError(409, 'reliefNotMonitored');
        if (body.riskRemovedDate > today())
          throw new FieldInputError('riskRemovedDate', {
            zh: '风险消除日期不能晚于今天',
            en: 'The risk cannot be removed on a day to come',
          });
        if (row.identifyDate && body.riskRemovedDate < String(row.identifyDate))
          throw new FieldInputError('riskRemovedDate', {
            zh: '风险消除日期不能早于认定日期',
            en: 'The risk cannot be removed before the household was identified',
          });
        return updateRow(
          m,
          ctx,
          tx,
          body.id,
          {
            stage: RELIEF_STAGE.riskRemoved,
            riskRemovedDate: body.riskRemovedDate,
            riskRemovedReason: body.riskRemovedReason,
          },
          scope,
        );
      });
      m.changed();
      return done;
    },
  });

/** A monitored household without a measure in progress (落实中): who still needs one. */
const withoutMeasureEndpoint = (db: Db) =>
  endpoint({
    method: 'GET',
    path: 'without-measure',
    query: z.object({}).strict(),
    async handler({ scope }) {
      const rows = await db
        .select({
          id: h.id,
          householdNo: h.householdNo,
          householderName: villager.name,
          monitorKind: h.monitorKind,
          identifyDate: h.identifyDate,
        })
        .from(h)
        .leftJoin(
          villager,
          and(
            eq(villager.id, h.householderId),
            eq(villager.tenantId, h.tenantId),
            notDeleted(villager.isDeleted),
          ),
        )
        .where(and(scope, withoutMeasure))
        .orderBy(asc(h.identifyDate), desc(h.id))
        .limit(500);
      return rows.map((r) => ({ ...r, id: String(r.id), householderName: r.householderName ?? '' }));
    },
  });

function householdHooks(db: Db, config: Config): ResourceHooks {
  return {
    beside,
    toRow(row) {
      return { ...row, ...reliefClocks(row, today()) };
    },
    endpoints: [identifyEndpoint(db, config), removeRiskEndpoint(db), withoutMeasureEndpoint(db)],
  };
}

/** A measure is for a household under monitoring (identified, risk not yet removed). */
function measureHooks(db: Db): ResourceHooks {
  return {
    async beforeWrite(ctx, record) {
      if (!record.householdId) return;
      const [row] = await db
        .select({ stage: h.stage })
        .from(h)
        .where(
          and(eq(h.id, String(record.householdId)), eq(h.tenantId, ctx.tenantId), notDeleted(h.isDeleted)),
        )
        .limit(1);
      if (row && row.stage !== RELIEF_STAGE.monitored)
        throw new FieldInputError('householdId', {
          zh: '只能为监测中的农户安排帮扶措施',
          en: 'Measures are for households under monitoring',
        });
    },
  };
}

/** Every relief resource's table and hooks, for modules/resources.ts. */
export function reliefHooks(db: Db, config: Config): Record<string, ResourceHooks> {
  return { preventionPoverty: householdHooks(db, config), supportingMeasures: measureHooks(db) };
}
