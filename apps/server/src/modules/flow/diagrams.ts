import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireCtx } from '../../platform/auth/context';
import { ok } from '../../platform/http/envelope';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { definitionVisibleTo } from './service/deploy';
import { dt, names, readableInstance } from './shared';
import { flowDefinition, flowHistory, flowTask } from './tables';
import { shownIn } from './texts';

/**
 * Diagrams and history: a definition's or an instance's BPMN XML with the activities it passed (the viewer
 * highlights them), and an instance's timeline. An instance is read only by those `readableInstance` lets in.
 */
export async function diagramRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;

  app.get(
    '/process/model-view',
    {
      schema: {
        querystring: z.object({
          processInstanceId: z.string().max(64).optional(),
          processDefinitionId: z.string().max(128).optional(),
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      const { processInstanceId, processDefinitionId } = req.query;
      let defId = processDefinitionId;
      let flow: { historyActivityId: string; historyActivityType: string; endTime: string }[] = [];
      if (processInstanceId) {
        const i = await readableInstance(db, ctx, processInstanceId);
        defId = i.processDefinitionId;
        const rows = await db
          .select()
          .from(flowHistory)
          .where(eq(flowHistory.processInstanceId, i.processInstanceId))
          .orderBy(asc(flowHistory.startTime), asc(flowHistory.id));
        flow = rows.map((h) => ({
          historyActivityId: h.activityId,
          historyActivityType: h.activityType,
          endTime: dt(h.endTime),
        }));
      }
      if (!defId)
        throw new FieldInputError('processInstanceId', {
          zh: '请指定流程实例或流程定义',
          en: 'Name a process instance or definition',
        });
      const [def] = await db
        .select({ xml: flowDefinition.xml })
        .from(flowDefinition)
        .where(and(eq(flowDefinition.processDefinitionId, defId), definitionVisibleTo(ctx.tenantId)))
        .limit(1);
      if (!def) throw notFound();
      return ok(req, { xml: def.xml, flow });
    },
  );

  app.get(
    '/process/history-flow-list',
    { schema: { querystring: z.object({ processInstanceId: z.string().min(1).max(64) }) } },
    async (req) => {
      const ctx = requireCtx(req);
      const i = await readableInstance(db, ctx, req.query.processInstanceId);
      const rows = await db
        .select()
        .from(flowHistory)
        .where(
          and(
            eq(flowHistory.processInstanceId, i.processInstanceId),
            inArray(flowHistory.activityType, ['StartEvent', 'UserTask', 'EndEvent']),
          ),
        )
        .orderBy(asc(flowHistory.startTime), asc(flowHistory.id));
      // a waiting task's assignee is on its task row until it is completed
      const pending = await db
        .select({ executionId: flowTask.executionId, assignee: flowTask.assignee })
        .from(flowTask)
        .where(and(eq(flowTask.processInstanceId, i.processInstanceId), isNotNull(flowTask.assignee)));
      const n = await names(
        db,
        [...rows.map((r) => r.assignee), ...pending.map((p) => p.assignee), i.startUser],
        req.lang,
      );
      const duration = (a: Date, b: Date | null) => {
        if (!b) return '';
        const s = Math.max(0, Math.round((b.getTime() - a.getTime()) / 1000));
        const d = Math.floor(s / 86400);
        const h = Math.floor((s % 86400) / 3600);
        const m = Math.floor((s % 3600) / 60);
        return req.lang === 'en'
          ? `${d ? `${d}d ` : ''}${h ? `${h}h ` : ''}${m}m ${s % 60}s`
          : `${d ? `${d}天` : ''}${h ? `${h}小时` : ''}${m}分${s % 60}秒`;
      };
      return ok(
        req,
        rows.map((h) => {
          const assignee =
            h.activityType === 'StartEvent'
              ? i.startUser
              : (h.assignee ?? pending.find((p) => p.executionId === h.executionId)?.assignee ?? null);
          return {
            historyActivityId: h.activityId,
            historyActivityName: shownIn(h.activityName ?? h.activityId, req.lang),
            historyActivityType: h.activityType,
            assignee: assignee ?? '',
            assigneeName: n.user(assignee),
            createTime: dt(h.startTime),
            endTime: dt(h.endTime),
            durationTime: duration(h.startTime, h.endTime),
            comment: shownIn(h.comment ?? '', req.lang),
          };
        }),
      );
    },
  );
}
