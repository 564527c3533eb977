import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../platform/access/permissions';
import { requireCtx } from '../../platform/auth/context';
import { schema } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { ok } from '../../platform/http/envelope';
import { FieldInputError, notFound } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { notDeleted } from '../../platform/sql';
import { ApproverLists, checkApproverLists, liveUsersOf } from '../flow/approvers';
import { forgetWorkCounts, readableInstance } from '../flow/routes';
import { flowTransaction, startableDefinition, startDefinition } from '../flow/service';
import { flowInstance, processLeave } from '../flow/tables';

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/;

/** The leave form of the seeded leave process: the business row, then the process it starts. */
export async function leaveRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;
  const tz = () => process.env.TZ || 'Asia/Shanghai';

  app.post(
    '/process/leave/start-process',
    {
      schema: {
        body: z.object({
          processDefinitionId: z.string().min(1).max(128),
          taskUser: idString,
          startTime: z.string().regex(DATETIME),
          endTime: z.string().regex(DATETIME),
          reason: z.string().trim().min(1).max(1000),
          /** the approvers of the countersigns the process begins with, by collection variable */
          variables: ApproverLists,
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'work_start');
      const b = req.body;
      if (b.endTime < b.startTime)
        throw new FieldInputError('endTime', {
          zh: '结束时间不能早于开始时间',
          en: 'The end must not be before the start',
        });
      // the approver is a live user of the caller's tenant
      const approver = (await liveUsersOf(db, ctx.tenantId, [b.taskUser])).has(b.taskUser);
      if (!approver) throw new FieldInputError('taskUser', { zh: '审批人不存在', en: 'No such approver' });
      const def = await startableDefinition(db, ctx, b.processDefinitionId);
      const approverLists = b.variables ? await checkApproverLists(db, ctx, def.xml, b.variables) : {};
      const result = await flowTransaction(
        db,
        async (tx) => {
          // the instance's id is made here: the leave row is written with it (no second statement to link them)
          const processInstanceId = randomUUID();
          const [leave] = await tx
            .insert(processLeave)
            .values({
              tenantId: ctx.tenantId,
              processDefinitionId: b.processDefinitionId,
              processInstanceId,
              // wall-clock times of the form, in the server's time zone
              startTime: sql`(${b.startTime}::timestamp at time zone ${tz()})` as never,
              endTime: sql`(${b.endTime}::timestamp at time zone ${tz()})` as never,
              reason: b.reason,
              taskUser: b.taskUser,
              createUser: ctx.userId,
              createDept: ctx.deptId || null,
            })
            .returning({ id: processLeave.id });
          const days = Math.max(
            0,
            (Date.parse(b.endTime.replace(' ', 'T')) - Date.parse(b.startTime.replace(' ', 'T'))) /
              86_400_000,
          );
          const started = await startDefinition(tx, ctx, def, {
            businessId: leave.id,
            processInstanceId,
            variables: { ...approverLists, taskUser: b.taskUser, days: Math.round(days * 10) / 10 },
          });
          return { businessId: leave.id, ...started };
        },
        req.log,
      );
      forgetWorkCounts();
      return ok(req, result);
    },
  );

  app.get(
    '/process/leave/detail',
    { schema: { querystring: z.object({ businessId: idString }) } },
    async (req) => {
      const ctx = requireCtx(req);
      const [row] = await db
        .select({ leave: processLeave, state: flowInstance.state })
        .from(processLeave)
        .leftJoin(flowInstance, eq(flowInstance.processInstanceId, processLeave.processInstanceId))
        .where(
          and(
            eq(processLeave.id, req.query.businessId),
            eq(processLeave.tenantId, ctx.tenantId),
            notDeleted(processLeave.isDeleted),
          ),
        )
        .limit(1);
      if (!row) throw notFound();
      const l = row.leave;
      // who may read a leave is who may read its process (the applicant, its approvers, the followers)
      if (l.processInstanceId) await readableInstance(db, ctx, l.processInstanceId);
      else if (l.createUser !== ctx.userId) throw notFound();
      const ids = [l.taskUser, l.createUser].filter((x): x is string => !!x);
      const people = await db
        .select({ id: schema.user.id, name: schema.user.realName, account: schema.user.account })
        .from(schema.user)
        .where(and(inArray(schema.user.id, ids), eq(schema.user.tenantId, ctx.tenantId)));
      const nameOf = (id: string | null) => {
        const p = people.find((x) => x.id === id);
        return p ? p.name || p.account : '';
      };
      return ok(req, {
        id: l.id,
        processDefinitionId: l.processDefinitionId,
        processInstanceId: l.processInstanceId ?? '',
        startTime: formatDateTime(l.startTime),
        endTime: formatDateTime(l.endTime),
        reason: l.reason,
        taskUser: l.taskUser,
        taskUserName: nameOf(l.taskUser),
        applyUser: l.createUser ?? '',
        applyUserName: nameOf(l.createUser),
        applyTime: formatDateTime(l.applyTime),
        processIsFinished: row.state && row.state !== 'running' ? 'finished' : 'unfinished',
      });
    },
  );
}
