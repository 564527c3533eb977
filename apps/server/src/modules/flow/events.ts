import { and, count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../platform/access/permissions';
import { requireCtx } from '../../platform/auth/context';
import { ok } from '../../platform/http/envelope';
import { FieldInputError } from '../../platform/http/errors';
import { PageQuery, pagedList } from '../../platform/paging';
import { configureActions } from './actions';
import { keepLiveEngines } from './runtime/live';
import { deliverEvent, startByEvent } from './service/instances';
import { flowTransaction } from './service/outbox';
import { dt } from './shared';
import { flowNotice } from './tables';
import { startTimerPoller } from './timers';
import { forgetWorkCounts } from './work';

/**
 * Messages, signals, timers and notices: correlating a message to the instance of a business key and
 * broadcasting a signal (the caller's tenant only, with the 流程跟踪 buttons' codes), this server's timer
 * poller, and the notices the workflow sent the caller (reminders of due tasks, notice actions).
 */

const Variables = z
  .record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
    z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]),
  )
  .optional();
/** what the applicant wrote is theirs: a message or a signal may not rewrite it */
const LOCKED = new Set(['applyUser', 'businessId', 'taskUser', 'days', 'title', 'content']);
function checkVariables(variables: Record<string, unknown> | undefined) {
  const locked = Object.keys(variables ?? {}).find((k) => LOCKED.has(k));
  if (locked)
    throw new FieldInputError('variables', {
      zh: `流程变量 ${locked} 由发起人填写,不能修改`,
      en: `The process variable ${locked} is the applicant's and cannot be changed`,
    });
}

export async function eventRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db, config } = base.deps;
  configureActions(config.FLOW_HTTP_ALLOW);
  keepLiveEngines(config.FLOW_LIVE_ENGINES);
  startTimerPoller(base, db, config.FLOW_TIMER_INTERVAL_MS);

  /**
   * Delivers a message to the (oldest) running instance of the business key that waits for it; when none
   * waits, starts the latest version of the tenant's process whose start event catches it, with that
   * business key (service/instances.ts startByEvent).
   */
  app.post(
    '/process/message',
    {
      schema: {
        querystring: z.object({
          name: z.string().trim().min(1).max(255),
          businessKey: z.string().trim().min(1).max(64),
        }),
        body: z.object({ variables: Variables }).optional(),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'flow_follow_message');
      const variables = req.body?.variables ?? {};
      checkVariables(variables);
      const { heard, started } = await flowTransaction(
        db,
        async (tx) => {
          const opts = { businessKey: req.query.businessKey, variables };
          const heard = await deliverEvent(tx, ctx.tenantId, 'message', req.query.name, opts);
          return {
            heard,
            started: heard ? [] : await startByEvent(tx, ctx, 'message', req.query.name, opts),
          };
        },
        req.log,
      );
      if (!heard && !started.length)
        throw new FieldInputError('name', {
          zh: `没有业务标识为 ${req.query.businessKey} 的流程在等待消息 ${req.query.name},也没有流程由它发起`,
          en: `No process of business key ${req.query.businessKey} waits for the message ${req.query.name}, and none starts on it`,
        });
      forgetWorkCounts();
      return ok(req, { heard, started: started.length, processInstanceIds: started });
    },
  );

  /**
   * Broadcasts a signal to every running instance of the caller's tenant that waits for it, and starts every
   * process of the tenant whose start event catches it (its latest version).
   */
  app.post(
    '/process/signal',
    {
      schema: {
        querystring: z.object({ name: z.string().trim().min(1).max(255) }),
        body: z.object({ variables: Variables }).optional(),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'flow_follow_signal');
      const variables = req.body?.variables ?? {};
      checkVariables(variables);
      const { heard, started } = await flowTransaction(
        db,
        async (tx) => ({
          heard: await deliverEvent(tx, ctx.tenantId, 'signal', req.query.name, { variables }),
          started: await startByEvent(tx, ctx, 'signal', req.query.name, { variables }),
        }),
        req.log,
      );
      forgetWorkCounts();
      return ok(req, { heard, started: started.length, processInstanceIds: started });
    },
  );

  /** The notices the workflow sent the caller, newest first. */
  app.get('/work/notice-list', { schema: { querystring: PageQuery } }, async (req) => {
    const ctx = requireCtx(req);
    await requirePermission(db, req, 'work_todo');
    const q = req.query;
    const cond = and(eq(flowNotice.tenantId, ctx.tenantId), eq(flowNotice.userId, ctx.userId));
    const page = await pagedList(q, {
      rows: db
        .select()
        .from(flowNotice)
        .where(cond)
        .orderBy(desc(flowNotice.createTime), desc(flowNotice.id)),
      total: db.select({ total: count() }).from(flowNotice).where(cond),
      records: (rows) =>
        rows.map((r) => ({
          id: r.id,
          title: req.lang === 'en' ? r.titleEn : r.title,
          processInstanceId: r.processInstanceId,
          taskId: r.taskId ?? '',
          createTime: dt(r.createTime),
        })),
    });
    return ok(req, page);
  });
}
