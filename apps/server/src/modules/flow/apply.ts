import { randomUUID } from 'node:crypto';
import { isId } from '@smart/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePermission } from '../../platform/access/permissions';
import { requireCtx } from '../../platform/auth/context';
import { schema } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { ok } from '../../platform/http/envelope';
import { FieldInputError } from '../../platform/http/errors';
import { actsOnBusinessRecords } from './actions';
import { ApproverLists, checkApproverLists, liveUsersOf } from './approvers';
import { startableDefinition, startDefinition } from './service/instances';
import { flowTransaction } from './service/outbox';
import { names, readableInstance } from './shared';
import { forgetWorkCounts } from './work';

/** Limits of the application form (the web form says the same). */
const APPLY_LIMITS = { title: 100, content: 2000 } as const;

/** A diagram whose tasks name `${taskUser}` needs an approver, or its first task would wait for nobody. */
const NAMES_TASK_USER = /\$\{\s*taskUser\s*\}/;

/**
 * The generic application (申请) of every process family that has no form of its own: a title, a content
 * and an optional approver (the `taskUser` variable). The application lives in the instance's variables;
 * its business id is the instance id, so the work lists' rows open its pages.
 */
export async function applyRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = base.deps;

  app.post(
    '/process/apply/start-process',
    {
      schema: {
        // loose bounds here; the exact rules below answer in the form's words, field by field
        body: z.object({
          processDefinitionId: z.string().min(1).max(128),
          title: z.string().max(10_000).optional().nullable(),
          content: z.string().max(100_000).optional().nullable(),
          taskUser: z.string().max(64).optional().nullable(),
          /** the approvers of the countersigns the process begins with, by collection variable */
          variables: ApproverLists,
        }),
      },
    },
    async (req) => {
      const ctx = requireCtx(req);
      await requirePermission(db, req, 'work_start');
      const b = req.body;
      const title = (b.title ?? '').trim();
      const content = (b.content ?? '').trim();
      const taskUser = (b.taskUser ?? '').trim();
      if (!title) throw new FieldInputError('title', { zh: '请输入标题', en: 'Please enter a title' });
      if (title.length > APPLY_LIMITS.title)
        throw new FieldInputError('title', {
          zh: `标题不能超过 ${APPLY_LIMITS.title} 个字符`,
          en: `The title must be at most ${APPLY_LIMITS.title} characters`,
        });
      if (content.length > APPLY_LIMITS.content)
        throw new FieldInputError('content', {
          zh: `内容不能超过 ${APPLY_LIMITS.content} 个字符`,
          en: `The content must be at most ${APPLY_LIMITS.content} characters`,
        });
      const def = await startableDefinition(db, ctx, b.processDefinitionId);
      const { xml } = def;
      // a process whose steps act on a business record (a module's action) starts from that record
      if (actsOnBusinessRecords(xml))
        throw new FieldInputError('processDefinitionId', {
          zh: '该流程须在其业务页面发起',
          en: 'This process is started from its business screen',
        });
      const approverLists = await checkApproverLists(db, ctx, xml, b.variables);
      if (taskUser) {
        // the approver is a live user of the caller's tenant
        const approver = isId(taskUser) && (await liveUsersOf(db, ctx.tenantId, [taskUser])).has(taskUser);
        if (!approver) throw new FieldInputError('taskUser', { zh: '审批人不存在', en: 'No such approver' });
      } else if (NAMES_TASK_USER.test(xml)) {
        throw new FieldInputError('taskUser', {
          zh: '该流程需要选择审批人',
          en: 'This process needs an approver',
        });
      }
      const result = await flowTransaction(
        db,
        async (tx) => {
          // the application has no row of its own: the instance is its business record
          const processInstanceId = randomUUID();
          const started = await startDefinition(tx, ctx, def, {
            variables: { ...approverLists, title, content, ...(taskUser ? { taskUser } : {}) },
            processInstanceId,
            businessId: processInstanceId,
          });
          return {
            processInstanceId: started.processInstanceId,
            businessId: started.processInstanceId,
            processDefinitionId: started.processDefinitionId,
            finished: started.finished,
          };
        },
        req.log,
      );
      forgetWorkCounts();
      return ok(req, result);
    },
  );

  /** The application: who may read it is who may read the instance's timeline (readableInstance). */
  app.get(
    '/process/apply/detail',
    { schema: { querystring: z.object({ processInstanceId: z.string().min(1).max(64) }) } },
    async (req) => {
      const ctx = requireCtx(req);
      const i = await readableInstance(db, ctx, req.query.processInstanceId);
      let vars: Record<string, unknown> = {};
      try {
        const parsed = JSON.parse(i.variables ?? '{}');
        if (parsed && typeof parsed === 'object') vars = parsed;
      } catch {
        /* no variables recorded */
      }
      const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
      const taskUser = text(vars.taskUser);
      const ids = [i.startUser, ...(isId(taskUser) ? [taskUser] : [])];
      // names of the caller's tenant only (the variables are the process's, not a checked row)
      const people = await db
        .select({ id: schema.user.id, name: schema.user.realName, account: schema.user.account })
        .from(schema.user)
        .where(and(inArray(schema.user.id, ids), eq(schema.user.tenantId, ctx.tenantId)));
      const nameOf = (id: string) => {
        const p = people.find((x) => x.id === id);
        return p ? p.name || p.account : '';
      };
      const n = await names(db, [], req.lang);
      return ok(req, {
        processInstanceId: i.processInstanceId,
        processDefinitionId: i.processDefinitionId,
        processDefinitionName: i.processName,
        category: i.category ?? '',
        categoryName: n.category(i.category),
        title: text(vars.title),
        content: text(vars.content),
        taskUser,
        taskUserName: taskUser ? nameOf(taskUser) : '',
        applyUser: i.startUser,
        applyUserName: nameOf(i.startUser),
        applyTime: formatDateTime(i.startTime),
        processIsFinished: i.state !== 'running' ? 'finished' : 'unfinished',
      });
    },
  );
}
