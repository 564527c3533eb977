import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DEFAULT_TENANT_ID, isId } from '@smart/contracts';
import { and, asc, desc, eq, inArray, isNull, lte, ne, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext } from '../../platform/auth/context';
import { type Db, schema } from '../../platform/db';
import { ApiError, FieldInputError, notFound } from '../../platform/http/errors';
import { notDeleted } from '../../platform/sql';
import { type HttpRequest, performAction, prepareHttp, sendHttp } from './actions';
import { resolve } from './expressions';
import { DiagramRefusal, inspectDiagram } from './runtime/inspect';
import type { WaitingTask } from './runtime/recorder';
import { continueProcess, type RunResult, startProcess, type Trigger } from './runtime/run';
import { startsByHand, startTimersOf } from './runtime/starts';
import {
  flowDefinition,
  flowDeployment,
  flowHistory,
  flowInstance,
  flowNotice,
  flowTask,
  flowWait,
} from './tables';

/**
 * The workflow service: deploys diagrams, starts instances, hands out, claims and completes tasks. Every
 * running instance's engine state is saved at each wait, so any server (after a restart or a crash)
 * continues it. Claiming and completing are single conditional updates: of two racers exactly one wins.
 */

type SQLWrapperLike = typeof flowTask.candidateUsers | typeof flowTask.candidateGroups;

const flowError = (zh: string, en: string) => new FieldInputError('taskId', { zh, en });

/** Definitions a tenant may use: deployed for every tenant ('') or for it by name. */
export function definitionVisibleTo(tenantId: string): SQL {
  return or(
    eq(flowDefinition.tenantIds, ''),
    sql`(',' || ${flowDefinition.tenantIds} || ',') like ${`%,${tenantId},%`}`,
  ) as SQL;
}

export interface DeployFile {
  name: string;
  xml: string;
}

/** Checks every file first; one bad file deploys nothing. */
export async function deploy(
  db: Db,
  ctx: RequestContext,
  input: { name?: string; category?: string; tenantIds: string[]; files: DeployFile[] },
) {
  if (!input.files.length)
    throw new FieldInputError('files', { zh: '请选择流程文件', en: 'please choose a process file' });
  const inspected: { file: DeployFile; info: Awaited<ReturnType<typeof inspectDiagram>> }[] = [];
  for (const f of input.files) {
    try {
      inspected.push({ file: f, info: await inspectDiagram(f.xml) });
    } catch (e) {
      const why =
        e instanceof DiagramRefusal ? e.text : { zh: (e as Error).message, en: (e as Error).message };
      throw new FieldInputError('files', {
        zh: `${f.name} 不能部署: ${why.zh}`,
        en: `${f.name} cannot be deployed: ${why.en}`,
      });
    }
  }
  const tenantIds = [...new Set(input.tenantIds)].join(',');
  return db.transaction(async (tx) => {
    const [deployment] = await tx
      .insert(flowDeployment)
      .values({
        name: input.name || inspected[0].info.name,
        category: input.category ?? null,
        tenantIds,
        createUser: ctx.userId,
        createDept: ctx.deptId || null,
      })
      .returning({ id: flowDeployment.id });
    const created = [];
    for (const { file, info } of inspected) {
      const [{ v }] = await tx
        .select({ v: sql<number>`coalesce(max(${flowDefinition.version}), 0) + 1` })
        .from(flowDefinition)
        .where(eq(flowDefinition.processKey, info.processKey));
      const [row] = await tx
        .insert(flowDefinition)
        .values({
          deploymentId: deployment.id,
          processDefinitionId: `${info.processKey}:${v}:${randomUUID().slice(0, 8)}`,
          processKey: info.processKey,
          name: info.name,
          version: Number(v),
          category: input.category ?? null,
          tenantIds,
          resourceName: file.name,
          xml: file.xml,
          createUser: ctx.userId,
        })
        .returning();
      created.push(row);
      // a timer start event: the new version's timers replace the older versions'
      const timers = startTimersOf(info.startTimers);
      if (timers.length) {
        await tx
          .update(flowWait)
          .set({ firedAt: new Date() })
          .where(
            and(
              eq(flowWait.kind, 'start-timer'),
              eq(flowWait.tenantId, ctx.tenantId),
              isNull(flowWait.firedAt),
              inArray(
                flowWait.definitionId,
                tx
                  .select({ id: flowDefinition.id })
                  .from(flowDefinition)
                  .where(eq(flowDefinition.processKey, info.processKey)),
              ),
            ),
          );
        await tx.insert(flowWait).values(
          timers.map((t) => ({
            tenantId: ctx.tenantId,
            kind: 'start-timer',
            definitionId: row.id,
            activityId: t.activityId,
            dueAt: t.dueAt,
            repeat: t.repeat,
            spec: t.spec,
            createTime: new Date(),
          })),
        );
      }
      // message and signal start events: what startByEvent looks up (only the latest version's count)
      if (info.startEvents.length)
        await tx.insert(flowWait).values(
          info.startEvents.map((e) => ({
            tenantId: ctx.tenantId,
            kind: `start-${e.kind}`,
            definitionId: row.id,
            activityId: e.activityId,
            name: e.name.slice(0, 255),
            createTime: new Date(),
          })),
        );
    }
    return { deploymentId: deployment.id, definitions: created };
  });
}

async function userRoleKeys(db: Db, ctx: RequestContext): Promise<string[]> {
  // candidate groups name roles by alias or id
  const roles = await db
    .select({ id: schema.role.id, alias: schema.role.roleAlias })
    .from(schema.userRole)
    .innerJoin(schema.role, eq(schema.role.id, schema.userRole.roleId))
    .where(and(eq(schema.userRole.userId, ctx.userId), notDeleted(schema.role.isDeleted)));
  return roles.flatMap((r) => [r.id, r.alias]);
}

/** The condition "the caller may claim this unassigned task". */
export async function claimableBy(db: Db, ctx: RequestContext): Promise<SQL> {
  const keys = await userRoleKeys(db, ctx);
  const csvHas = (col: SQLWrapperLike, v: string) => sql`(',' || ${col} || ',') like ${`%,${v},%`}`;
  return and(
    eq(flowTask.tenantId, ctx.tenantId),
    eq(flowTask.status, 0),
    isNull(flowTask.assignee),
    or(csvHas(flowTask.candidateUsers, ctx.userId), ...keys.map((k) => csvHas(flowTask.candidateGroups, k))),
  ) as SQL;
}

function taskRows(
  instance: { tenantId: string; processInstanceId: string; processDefinitionId: string },
  waiting: WaitingTask[],
  vars: Record<string, unknown>,
) {
  return waiting.map((w) => {
    // an iteration of a multi-instance task resolves with its own element variable (会签: one approver each)
    const scope = w.variables ? { ...vars, ...w.variables } : vars;
    const list = (text: string | undefined) =>
      text
        ? text
            .split(',')
            .map((p) => String(resolve(p.trim(), scope) ?? ''))
            .filter(Boolean)
            .join(',')
        : null;
    const assignee = w.assignee ? String(resolve(w.assignee, scope) ?? '') : '';
    return {
      tenantId: instance.tenantId,
      processInstanceId: instance.processInstanceId,
      processDefinitionId: instance.processDefinitionId,
      executionId: w.executionId,
      taskDefinitionKey: w.activityId,
      name: w.name,
      assignee: isId(assignee) ? assignee : null,
      candidateUsers: list(w.candidateUsers),
      candidateGroups: list(w.candidateGroups),
    };
  });
}

/**
 * The run's history in two statements at most, whatever its length: what began in this run is inserted
 * with its end when it also ended (a gateway, an event, a flow), and only what began in an earlier run
 * (the task just completed) is updated — instead of a statement per event, in the instance's lock.
 */
async function recordHistory(
  tx: Db,
  instance: typeof flowInstance.$inferSelect,
  history: RunResult['history'],
) {
  const rows: (typeof flowHistory.$inferInsert)[] = [];
  const begun = new Map<string, typeof flowHistory.$inferInsert>();
  const endedEarlier: { executionId: string; at: Date }[] = [];
  for (const h of history) {
    const row = {
      tenantId: instance.tenantId,
      processInstanceId: instance.processInstanceId,
      executionId: h.executionId,
      activityId: h.activityId,
      activityType: h.activityType,
      startTime: h.at,
    };
    if (h.kind === 'start') {
      const started = { ...row, activityName: h.activityName ?? null };
      rows.push(started);
      begun.set(h.executionId, started);
    } else if (h.activityType === 'sequenceFlow') rows.push({ ...row, endTime: h.at });
    else {
      const started = begun.get(h.executionId);
      if (started) started.endTime = h.at;
      else endedEarlier.push({ executionId: h.executionId, at: h.at });
    }
  }
  if (rows.length) await tx.insert(flowHistory).values(rows);
  for (const e of endedEarlier)
    await tx
      .update(flowHistory)
      .set({ endTime: e.at })
      .where(
        and(
          eq(flowHistory.processInstanceId, instance.processInstanceId),
          eq(flowHistory.executionId, e.executionId),
        ),
      );
}

/** Writes what a run produced: the saved state, new tasks, history. */
async function record(tx: Db, instance: typeof flowInstance.$inferSelect, run: RunResult, isNew = false) {
  const now = new Date();
  if (!isNew)
    await tx
      .update(flowInstance)
      .set({
        engineState: run.ended ? null : run.state,
        variables: JSON.stringify(run.variables),
        state: run.ended ? 'finished' : 'running',
        endTime: run.ended ? now : null,
        updateTime: now,
      })
      .where(eq(flowInstance.id, instance.id));
  if (run.waiting.length) {
    const known = new Set<string | null>(
      isNew || run.known?.fresh
        ? []
        : (
            await tx
              .select({ e: flowTask.executionId })
              .from(flowTask)
              .where(eq(flowTask.processInstanceId, instance.processInstanceId))
          ).map((r) => r.e),
    );
    const fresh = taskRows(instance, run.waiting, run.variables).filter((t) => !known.has(t.executionId));
    if (fresh.length) await tx.insert(flowTask).values(fresh);
  }
  await recordHistory(tx, instance, run.history);
  await recordWaits(tx, instance, run, now, isNew);
  if (run.ended) {
    // a process that ended leaves no task waiting (a terminate end cancels the rest), unless the run says
    // none but the one completed waited
    if (!run.known?.kept)
      await tx
        .update(flowTask)
        .set({ status: 2, endTime: now })
        .where(and(eq(flowTask.processInstanceId, instance.processInstanceId), eq(flowTask.status, 0)));
  } else if (run.stillWaiting.length && !isNew && !run.known?.kept) {
    // a task the process no longer waits on (a countersign whose completion condition was met) is withdrawn
    // (not looked for when the run says every task that waited before still waits)
    await tx
      .update(flowTask)
      .set({ status: 2, endTime: now })
      .where(
        and(
          eq(flowTask.processInstanceId, instance.processInstanceId),
          eq(flowTask.status, 0),
          notInArray(flowTask.executionId, run.stillWaiting),
        ),
      );
  }
}

/** Who an instance runs for: a signed-in user, or (a timer's or a call's start) the one it started for. */
export type Actor = Pick<RequestContext, 'tenantId' | 'userId' | 'deptId'>;
type Instance = typeof flowInstance.$inferSelect;

/** Starts an instance of a definition and does what its first run asks (calls, actions, …). */
export async function startDefinition(
  t: Db,
  actor: Actor,
  def: typeof flowDefinition.$inferSelect,
  input: {
    variables: Record<string, unknown>;
    businessId?: string;
    processInstanceId?: string;
    /** the start event that caught the message or signal (or whose timer fired) that starts it */
    entry?: string;
  },
  depth = 0,
) {
  const processInstanceId = input.processInstanceId ?? randomUUID();
  const variables = { ...input.variables, applyUser: actor.userId, businessId: input.businessId ?? '' };
  const result = await startProcess(processInstanceId, def.xml, variables, input.entry);
  const now = new Date();
  const [instance] = await t
    .insert(flowInstance)
    .values({
      // what its first run left: `apply` below knows the row is new (nothing to update or look up)
      engineState: result.ended ? null : result.state,
      variables: JSON.stringify(result.variables),
      state: result.ended ? 'finished' : 'running',
      endTime: result.ended ? now : null,
      tenantId: actor.tenantId,
      processInstanceId,
      definitionId: def.id,
      processDefinitionId: def.processDefinitionId,
      processKey: def.processKey,
      processName: def.name,
      category: def.category,
      businessId: input.businessId ?? null,
      startUser: actor.userId,
      createUser: actor.userId,
      createDept: actor.deptId || null,
    })
    .returning();
  await apply(t, instance, result, depth, true);
  return { processInstanceId, processDefinitionId: def.processDefinitionId, finished: result.ended };
}

export async function startInstance(
  db: Db,
  ctx: Actor,
  input: {
    processDefinitionId: string;
    variables: Record<string, unknown>;
    businessId?: string;
    /** the new instance's id (made here when not given) */
    processInstanceId?: string;
  },
  tx?: Db,
) {
  const run = async (t: Db) => {
    const [def] = await t
      .select()
      .from(flowDefinition)
      .where(
        and(
          eq(flowDefinition.processDefinitionId, input.processDefinitionId),
          notDeleted(flowDefinition.isDeleted),
          definitionVisibleTo(ctx.tenantId),
        ),
      )
      .limit(1);
    if (!def) throw notFound();
    if (def.suspended)
      throw new FieldInputError('processDefinitionId', {
        zh: '流程已挂起,不能发起',
        en: 'The process is suspended and cannot be started',
      });
    if (!(await startsByHand(def.xml)))
      throw new FieldInputError('processDefinitionId', {
        zh: '该流程只由消息或信号发起,不能手动发起',
        en: 'This process is started only by a message or a signal, not by hand',
      });
    return startDefinition(t, ctx, def, input);
  };
  return tx ? run(tx) : flowTransaction(db, run);
}

/** How deep one request may drive instances (calls within calls, actions after actions). */
const MAX_STEPS = 64;

/**
 * Records a run, then does what it asks of the service, in the same transaction: starts the children of
 * call activities, runs service tasks' actions, sends the reminders of timers that fired, broadcasts the
 * signals it threw, and continues the caller of an instance that ended.
 */
async function apply(
  tx: Db,
  instance: Instance,
  run: RunResult,
  depth: number,
  /** the instance's row was just inserted with this run's state: it has no tasks, waits or state to update */
  isNew = false,
): Promise<void> {
  if (depth > MAX_STEPS)
    throw new ApiError(409, 'flowStuck', { reason: 'the process does not come to a wait (too many steps)' });
  await record(tx, instance, run, isNew);
  for (const fired of run.firedTimers) if (fired.attachedTo) await remind(tx, instance, fired.attachedTo);
  for (const call of run.calls) await startChild(tx, instance, call, depth);
  for (const action of run.actions) {
    if (action.action === 'http') {
      await deferAction(tx, instance, action, run.variables);
      continue;
    }
    const output = await performAction(tx, instance, action, run.variables);
    await advance(
      tx,
      instance.processInstanceId,
      { kind: 'execution', executionId: action.executionId, output },
      depth + 1,
    );
  }
  for (const name of run.thrownSignals) {
    await deliverEvent(
      tx,
      instance.tenantId,
      'signal',
      name,
      { except: instance.processInstanceId },
      depth + 1,
    );
    // and starts the processes of the tenant whose start event catches it, for the one it runs for
    await startByEvent(
      tx,
      { tenantId: instance.tenantId, userId: instance.startUser, deptId: instance.createDept ?? '' },
      'signal',
      name,
      {},
      depth + 1,
    );
  }
  if (run.ended) {
    const [call] = await tx
      .update(flowWait)
      .set({ firedAt: new Date() })
      .where(
        and(
          eq(flowWait.kind, 'call'),
          eq(flowWait.childInstanceId, instance.processInstanceId),
          eq(flowWait.tenantId, instance.tenantId),
          isNull(flowWait.firedAt),
        ),
      )
      .returning();
    if (call?.processInstanceId && call.executionId)
      await advance(
        tx,
        call.processInstanceId,
        { kind: 'call', executionId: call.executionId, childVariables: run.variables },
        depth + 1,
      );
  }
}

/** a deployed definition's diagram never changes: each is read once (the last hundred are kept) */
const xmlOfDefinition = new Map<string, string>();
async function definitionXml(tx: Db, definitionId: string): Promise<string> {
  const kept = xmlOfDefinition.get(definitionId);
  if (kept !== undefined) return kept;
  const [def] = await tx
    .select({ xml: flowDefinition.xml })
    .from(flowDefinition)
    .where(eq(flowDefinition.id, definitionId))
    .limit(1);
  if (!def) throw new Error(`the definition ${definitionId} of a running instance is missing`);
  if (xmlOfDefinition.size >= 100) xmlOfDefinition.delete(xmlOfDefinition.keys().next().value as string);
  xmlOfDefinition.set(definitionId, def.xml);
  return def.xml;
}

/**
 * Moves a running instance on by a trigger, its row locked while the engine runs; answers false when the
 * instance is no longer running.
 */
export async function advance(tx: Db, processInstanceId: string, trigger: Trigger, depth = 0) {
  const [instance] = await tx
    .select()
    .from(flowInstance)
    .where(and(eq(flowInstance.processInstanceId, processInstanceId), eq(flowInstance.state, 'running')))
    .for('update')
    .limit(1);
  if (!instance?.engineState) return false;
  const run = await continueProcess(
    processInstanceId,
    await definitionXml(tx, instance.definitionId),
    instance.engineState,
    trigger,
    JSON.parse(instance.variables ?? '{}'),
  );
  await apply(tx, instance, run, depth);
  return true;
}

/** A call activity's child: the latest version of the called process in the caller's tenant. */
async function startChild(tx: Db, parent: Instance, call: RunResult['calls'][number], depth: number) {
  const [def] = await tx
    .select()
    .from(flowDefinition)
    .where(
      and(
        eq(flowDefinition.processKey, call.calledElement),
        notDeleted(flowDefinition.isDeleted),
        eq(flowDefinition.suspended, 0),
        definitionVisibleTo(parent.tenantId),
      ),
    )
    .orderBy(desc(flowDefinition.version))
    .limit(1);
  if (!def)
    throw new FieldInputError('processDefinitionId', {
      zh: `调用活动要调用的流程 ${call.calledElement} 未部署`,
      en: `the process ${call.calledElement} that a call activity calls is not deployed`,
    });
  if (!(await startsByHand(def.xml)))
    throw new FieldInputError('processDefinitionId', {
      zh: `调用活动要调用的流程 ${call.calledElement} 只由消息或信号发起`,
      en: `the process ${call.calledElement} that a call activity calls is started only by a message or a signal`,
    });
  // a recovery announces a waiting call again: its child already runs
  const [known] = await tx
    .select({ id: flowWait.id })
    .from(flowWait)
    .where(
      and(
        eq(flowWait.kind, 'call'),
        eq(flowWait.processInstanceId, parent.processInstanceId),
        eq(flowWait.executionId, call.executionId),
      ),
    )
    .limit(1);
  if (known) return;
  const childId = randomUUID();
  // the link first: a child that ends at once continues its caller through it
  await tx.insert(flowWait).values({
    tenantId: parent.tenantId,
    kind: 'call',
    processInstanceId: parent.processInstanceId,
    executionId: call.executionId,
    activityId: call.activityId,
    name: call.calledElement,
    childInstanceId: childId,
  });
  const { applyUser: _a, businessId: _b, ...input } = call.input;
  await startDefinition(
    tx,
    { tenantId: parent.tenantId, userId: parent.startUser, deptId: parent.createDept ?? '' },
    def,
    { variables: input, businessId: parent.businessId ?? undefined, processInstanceId: childId },
    depth + 1,
  );
}

/**
 * Delivers a message or a signal to the running instances of a tenant that wait for it: a message to the
 * instances of one business key (the first to wait for it), a signal to every one. Answers how many heard it.
 */
export async function deliverEvent(
  tx: Db,
  tenantId: string,
  kind: 'message' | 'signal',
  name: string,
  opts: { businessKey?: string; except?: string; variables?: Record<string, unknown> },
  depth = 0,
) {
  const where = [
    eq(flowWait.tenantId, tenantId),
    eq(flowWait.kind, kind),
    eq(flowWait.name, name),
    isNull(flowWait.firedAt),
    eq(flowInstance.tenantId, tenantId),
    eq(flowInstance.state, 'running'),
  ];
  if (opts.businessKey !== undefined) where.push(eq(flowInstance.businessId, opts.businessKey));
  if (opts.except) where.push(ne(flowWait.processInstanceId, opts.except));
  const waiting = await tx
    .selectDistinct({ piid: flowInstance.processInstanceId, startTime: flowInstance.startTime })
    .from(flowWait)
    .innerJoin(flowInstance, eq(flowInstance.processInstanceId, flowWait.processInstanceId))
    .where(and(...where))
    .orderBy(asc(flowInstance.startTime))
    .limit(kind === 'message' ? 1 : 1000);
  let heard = 0;
  for (const w of waiting)
    if (await advance(tx, w.piid, { kind, name, output: opts.variables ?? {} }, depth)) heard++;
  return heard;
}

/**
 * Starts what a message or a signal starts in a tenant: the latest visible version of each process whose
 * start event catches it (an older version's start event no longer counts; a suspended latest version starts
 * nothing), for `actor`, in the actor's tenant. A message starts one process — when several processes start
 * on it, nothing is started and the answer names them —, a signal every one. Answers the instances started.
 */
export async function startByEvent(
  tx: Db,
  actor: Actor,
  kind: 'message' | 'signal',
  name: string,
  opts: { businessKey?: string; variables?: Record<string, unknown> },
  depth = 0,
): Promise<string[]> {
  const visible = (alias: string) =>
    sql`(${sql.raw(alias)}.tenant_ids = '' or (',' || ${sql.raw(alias)}.tenant_ids || ',') like ${`%,${actor.tenantId},%`})`;
  const rows = await tx
    .select({ def: flowDefinition, activityId: flowWait.activityId })
    .from(flowWait)
    .innerJoin(flowDefinition, eq(flowDefinition.id, flowWait.definitionId))
    .where(
      and(
        eq(flowWait.kind, `start-${kind}`),
        eq(flowWait.name, name),
        isNull(flowWait.firedAt),
        notDeleted(flowDefinition.isDeleted),
        eq(flowDefinition.suspended, 0),
        definitionVisibleTo(actor.tenantId),
        sql`${flowDefinition.version} = (select max(d2.version) from flow_definition d2 where d2.process_key = ${flowDefinition.processKey} and d2.is_deleted = 0 and ${visible('d2')})`,
      ),
    )
    .orderBy(asc(flowDefinition.processKey), asc(flowWait.activityId));
  // one start event per definition (two catching the same name start it once)
  const seen = new Set<string>();
  const starts = rows.filter((r) => !seen.has(r.def.id) && seen.add(r.def.id));
  if (kind === 'message' && starts.length > 1)
    throw new FieldInputError('name', {
      zh: `消息 ${name} 可发起多个流程(${starts.map((r) => r.def.processKey).join('、')}),无法确定发起哪一个`,
      en: `The message ${name} starts more than one process (${starts.map((r) => r.def.processKey).join(', ')}): which one is not clear`,
    });
  const started: string[] = [];
  for (const { def, activityId } of starts) {
    const { processInstanceId } = await startDefinition(
      tx,
      actor,
      def,
      {
        variables: opts.variables ?? {},
        businessId: opts.businessKey,
        entry: activityId ?? undefined,
      },
      depth + 1,
    );
    started.push(processInstanceId);
  }
  return started;
}

/** The reminder of a boundary timer on a user task: a notice to whoever holds (or may claim) the task. */
async function remind(tx: Db, instance: Instance, taskKey: string) {
  const tasks = await tx
    .select()
    .from(flowTask)
    .where(
      and(
        eq(flowTask.processInstanceId, instance.processInstanceId),
        eq(flowTask.tenantId, instance.tenantId),
        eq(flowTask.taskDefinitionKey, taskKey),
        eq(flowTask.status, 0),
      ),
    );
  const rows = tasks.flatMap((t) =>
    (t.assignee ? [t.assignee] : (t.candidateUsers ?? '').split(',').filter(isId)).map((userId) => ({
      tenantId: instance.tenantId,
      userId,
      processInstanceId: instance.processInstanceId,
      taskId: t.id,
      title: `任务「${t.name}」已到期,请尽快办理(${instance.processName})`,
      titleEn: `The task "${t.name}" is due: please handle it (${instance.processName})`,
    })),
  );
  if (rows.length) await tx.insert(flowNotice).values(rows);
}

/**
 * Keeps flow_wait in step with a run: the timers the instance now waits on (a new one is written, one no
 * longer waited on — fired or cancelled — is marked fired), and its message and signal catches.
 */
async function recordWaits(tx: Db, instance: Instance, run: RunResult, now: Date, isNew = false) {
  const mine = and(eq(flowWait.processInstanceId, instance.processInstanceId), isNull(flowWait.firedAt));
  const open =
    isNew || run.known?.quiet
      ? []
      : await tx
          .select({
            id: flowWait.id,
            kind: flowWait.kind,
            executionId: flowWait.executionId,
            dueAt: flowWait.dueAt,
            childInstanceId: flowWait.childInstanceId,
          })
          .from(flowWait)
          .where(and(mine, inArray(flowWait.kind, ['timer', 'message', 'signal', 'call', 'action'])));
  // a call activity or an action the instance no longer waits on (an event interrupted it, or the instance
  // ended without it) is given up: the child a call started ends, and the children of that one
  const withdrawn = open.filter(
    (o) =>
      (o.kind === 'call' || o.kind === 'action') &&
      (run.ended || !run.stillWaiting.includes(o.executionId ?? '')),
  );
  if (withdrawn.length) {
    await tx
      .update(flowWait)
      .set({ firedAt: now })
      .where(
        inArray(
          flowWait.id,
          withdrawn.map((w) => w.id),
        ),
      );
    await endChildren(tx, withdrawn, CALL_WITHDRAWN);
  }
  const key = (executionId: string | null, at: Date | null) => `${executionId}|${at?.getTime()}`;
  const live = new Set(run.timers.map((t) => key(t.executionId, t.expireAt)));
  const known = new Set(open.filter((o) => o.kind === 'timer').map((o) => key(o.executionId, o.dueAt)));
  const gone = open
    .filter(
      (o) =>
        o.kind !== 'call' &&
        o.kind !== 'action' &&
        (o.kind !== 'timer' || !live.has(key(o.executionId, o.dueAt))),
    )
    .map((o) => o.id);
  // catches are written again as they are now; a timer that no longer waits is done
  if (gone.length) await tx.update(flowWait).set({ firedAt: now }).where(inArray(flowWait.id, gone));
  const fresh = [
    ...run.timers
      .filter((t) => !known.has(key(t.executionId, t.expireAt)))
      .map((t) => ({
        tenantId: instance.tenantId,
        kind: 'timer',
        processInstanceId: instance.processInstanceId,
        executionId: t.executionId,
        activityId: t.activityId,
        dueAt: t.expireAt,
      })),
    ...run.subscriptions.map((s) => ({
      tenantId: instance.tenantId,
      kind: s.kind,
      processInstanceId: instance.processInstanceId,
      executionId: s.executionId,
      activityId: s.activityId,
      name: s.name,
    })),
  ];
  if (fresh.length) await tx.insert(flowWait).values(fresh);
}

/*
 * Network calls of service tasks (the `http` action) never run inside a transaction: a slow endpoint would
 * hold the instance's row lock and a database connection (on PGlite, the database) for its seconds. The
 * transaction that reaches the task checks the address and writes the request down as a flow_wait row
 * (kind `action`, due at once), in the same commit as the state in which the task waits; after that commit
 * the request that caused it makes the call (runActions) and continues the instance in a new transaction,
 * which marks the row fired. Crash safety: the row is claimed for a lease (ACTION_LEASE_MS) before the call;
 * if the server dies before the instance went on, the row comes due again and any server's poller makes
 * the call again (runDueActions) — at least once, with the same Idempotency-Key. A call that gets no answer
 * is tried again later (ACTION_RETRIES times, waiting longer each time; then the row keeps the last error
 * in `spec` and the instance waits, and 流程跟踪 can end it). Meanwhile the instance stays usable: its other
 * tasks are completed as usual.
 */

/**
 * The action rows written by each running flow transaction, by its transaction handle (flowTransaction
 * runs them after the commit). Kept by handle, not in an AsyncLocalStorage: using one turns on async hooks
 * for every promise of the server, a cost every request would pay.
 */
const pendingActions = new WeakMap<object, string[]>();
const SERVER_ID = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
/** How long a claimed call may take before another server may try it again. */
const ACTION_LEASE_MS = 60_000;
/** How many calls without an answer before an action is given up. */
const ACTION_RETRIES = 5;

/** Writes an http action down to be run after the commit (once: a recovery announces a waiting one again). */
async function deferAction(
  tx: Db,
  instance: Instance,
  action: RunResult['actions'][number],
  vars: Record<string, unknown>,
) {
  const [known] = await tx
    .select({ id: flowWait.id })
    .from(flowWait)
    .where(
      and(
        eq(flowWait.kind, 'action'),
        eq(flowWait.processInstanceId, instance.processInstanceId),
        eq(flowWait.executionId, action.executionId),
        isNull(flowWait.firedAt),
      ),
    )
    .limit(1);
  if (known) return;
  const request = prepareHttp(instance, action, vars);
  const [row] = await tx
    .insert(flowWait)
    .values({
      tenantId: instance.tenantId,
      kind: 'action',
      processInstanceId: instance.processInstanceId,
      executionId: action.executionId,
      activityId: action.activityId,
      name: action.name.slice(0, 255),
      dueAt: new Date(),
      repeat: 0,
      payload: JSON.stringify(request),
    })
    .returning({ id: flowWait.id });
  pendingActions.get(tx)?.push(row.id);
}

/**
 * Runs `work` in a transaction and, once it has committed, the network calls it asked for (and what those
 * lead to). Every route that moves instances uses it; inside another one it is just that one's transaction.
 */
export async function flowTransaction<T>(
  db: Db,
  work: (tx: Db) => Promise<T>,
  log?: FastifyBaseLogger,
): Promise<T> {
  // inside another one (`db` is its handle): a savepoint of it, whose actions are that one's
  const ids = pendingActions.get(db) ?? [];
  const inner = pendingActions.has(db);
  const result = await db.transaction((tx) => {
    pendingActions.set(tx, ids);
    return work(tx as unknown as Db);
  });
  if (inner) return result;
  if (ids.length) await runActions(db, ids, log);
  return result;
}

/** Runs the action rows `ids` that are still due (none is left to a request whose transaction is open). */
async function runActions(db: Db, ids: string[], log?: FastifyBaseLogger) {
  const queue = [...ids];
  for (let i = 0; i < queue.length && i < MAX_STEPS; i++) {
    const now = new Date();
    const [row] = await db
      .update(flowWait)
      .set({ claimedBy: SERVER_ID, dueAt: new Date(now.getTime() + ACTION_LEASE_MS) })
      .where(
        and(
          eq(flowWait.id, queue[i]),
          eq(flowWait.kind, 'action'),
          isNull(flowWait.firedAt),
          lte(flowWait.dueAt, now),
        ),
      )
      .returning();
    if (row) queue.push(...(await runAction(db, row, SERVER_ID, log)));
  }
}

/** The poller's part: runs the action rows that are due (left by a server that died, or to try again). */
export async function runDueActions(db: Db, serverId: string, log?: FastifyBaseLogger, max = 20) {
  let ran = 0;
  for (; ran < max; ran++) {
    const now = new Date();
    const [row] = await db
      .update(flowWait)
      .set({ claimedBy: serverId, dueAt: new Date(now.getTime() + ACTION_LEASE_MS) })
      .where(
        eq(
          flowWait.id,
          sql`(select w.id from flow_wait w where w.kind = 'action' and w.fired_at is null and w.due_at <= ${now} order by w.due_at limit 1 for update skip locked)`,
        ),
      )
      .returning();
    if (!row) break;
    await runActions(db, await runAction(db, row, serverId, log), log);
  }
  return ran;
}

/**
 * Makes one claimed action's call, then continues its instance in a transaction of its own (the row is
 * marked fired there, so the instance goes on once). Answers the action rows that run wrote.
 */
async function runAction(
  db: Db,
  row: typeof flowWait.$inferSelect,
  serverId: string,
  log?: FastifyBaseLogger,
): Promise<string[]> {
  const { processInstanceId, executionId } = row;
  if (!row.payload || !processInstanceId || !executionId) return [];
  const next: string[] = [];
  try {
    const output = await sendHttp(JSON.parse(row.payload) as HttpRequest, row.id);
    await db.transaction(async (txRaw) => {
      pendingActions.set(txRaw, next);
      const tx = txRaw as unknown as Db;
      // the instance first, as every other writer locks it
      await tx
        .select({ id: flowInstance.id })
        .from(flowInstance)
        .where(eq(flowInstance.processInstanceId, processInstanceId))
        .for('update');
      const [mine] = await tx
        .update(flowWait)
        .set({ firedAt: new Date() })
        .where(and(eq(flowWait.id, row.id), isNull(flowWait.firedAt), eq(flowWait.claimedBy, serverId)))
        .returning({ id: flowWait.id });
      // withdrawn meanwhile (the instance ended, an event interrupted the task), or retaken after the lease
      if (!mine) return;
      await advance(tx, processInstanceId, { kind: 'execution', executionId, output });
    });
    return next;
  } catch (e) {
    const attempts = (row.repeat ?? 0) + 1;
    const again = attempts < ACTION_RETRIES;
    await db
      .update(flowWait)
      .set({
        repeat: attempts,
        spec: String((e as Error).message ?? e).slice(0, 255),
        claimedBy: null,
        // 1, 2, 4, 8 minutes; then no more
        dueAt: again ? new Date(Date.now() + 60_000 * 2 ** (attempts - 1)) : null,
      })
      .where(and(eq(flowWait.id, row.id), isNull(flowWait.firedAt)));
    log?.warn(
      { err: e, action: row.name, processInstanceId, attempts, again },
      again ? 'workflow action failed, tried again later' : 'workflow action failed, given up',
    );
    return [];
  }
}

/** Takes an unassigned task the caller is a candidate for; of two racers one wins, the other is told. */
export async function claimTask(db: Db, ctx: RequestContext, taskId: string) {
  const [task] = await db
    .update(flowTask)
    .set({ assignee: ctx.userId, claimTime: new Date() })
    .where(and(eq(flowTask.id, taskId), await claimableBy(db, ctx)))
    .returning({ id: flowTask.id });
  if (!task)
    throw flowError('任务已被签收或您无权签收', 'The task was already claimed or you may not claim it');
}

/**
 * What the start forms put into a process (who applied, the business row, the approver, the leave's days,
 * an application's title and content): the applicant's words, which no task holder may rewrite.
 */
const START_VARIABLES = new Set(['applyUser', 'businessId', 'taskUser', 'days', 'title', 'content']);

export async function completeTask(
  db: Db,
  ctx: RequestContext,
  input: { taskId: string; flag?: string; comment: string; variables?: Record<string, unknown> },
  log?: FastifyBaseLogger,
) {
  await flowTransaction(
    db,
    async (tx) => {
      const now = new Date();
      const flag = input.flag === 'ok' ? 'ok' : 'reject';
      const [task] = await tx
        .update(flowTask)
        .set({ status: 1, endTime: now, flag, comment: input.comment })
        .where(
          and(
            eq(flowTask.id, input.taskId),
            eq(flowTask.tenantId, ctx.tenantId),
            eq(flowTask.status, 0),
            eq(flowTask.assignee, ctx.userId),
          ),
        )
        .returning();
      if (!task) throw flowError('任务不存在或已被处理', 'The task does not exist or was already handled');
      const [instance] = await tx
        .select()
        .from(flowInstance)
        .where(
          and(eq(flowInstance.processInstanceId, task.processInstanceId), eq(flowInstance.state, 'running')),
        )
        .for('update')
        .limit(1);
      if (!instance?.engineState) throw flowError('流程已结束', 'The process has ended');
      const locked = Object.keys(input.variables ?? {}).find((k) => START_VARIABLES.has(k));
      if (locked)
        throw new FieldInputError('variables', {
          zh: `流程变量 ${locked} 由发起人填写,办理时不能修改`,
          en: `The process variable ${locked} is the applicant's and cannot be changed when handling a task`,
        });
      const vars = { ...(input.variables ?? {}), flag, comment: input.comment, pass: flag === 'ok' };
      let run: RunResult;
      try {
        run = await continueProcess(
          instance.processInstanceId,
          await definitionXml(tx, instance.definitionId),
          instance.engineState,
          { kind: 'execution', executionId: task.executionId, output: vars },
          JSON.parse(instance.variables ?? '{}'),
        );
      } catch (e) {
        throw new ApiError(409, 'flowStuck', { reason: (e as Error).message });
      }
      // the task's step of the timeline ends, with who did it and what they said; one approval of a
      // countersign is an iteration the engine records no step of: it gets a line of its own (one statement
      // either way, and the run's history need not end the step again)
      await tx.execute(sql`with step as (
          update flow_history set assignee = ${ctx.userId}::bigint, comment = ${input.comment},
            end_time = ${now.toISOString()}::timestamptz
          where process_instance_id = ${instance.processInstanceId} and execution_id = ${task.executionId}
          returning id)
        insert into flow_history (tenant_id, process_instance_id, execution_id, activity_id, activity_name,
          activity_type, start_time, end_time, assignee, comment)
        select ${instance.tenantId}, ${instance.processInstanceId}, ${task.executionId}, ${task.taskDefinitionKey},
          ${task.name}, 'UserTask', ${task.createTime.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz,
          ${ctx.userId}::bigint, ${input.comment}
        where not exists (select 1 from step)`);
      run.history = run.history.filter((h) => h.kind !== 'end' || h.executionId !== task.executionId);
      await apply(tx, instance, run, 0);
    },
    log,
  );
}

/**
 * Ends a running instance with a reason (流程跟踪's delete): it and the instances it called end. An instance
 * a running call activity waits for is not deleted on its own — its caller would wait for ever —: its
 * caller is deleted instead (which ends it too).
 */
export async function deleteInstance(db: Db, ctx: RequestContext, processInstanceId: string, reason: string) {
  await db.transaction(async (tx) => {
    const [caller] = await tx
      .select({ piid: flowWait.processInstanceId })
      .from(flowWait)
      .where(
        and(
          eq(flowWait.kind, 'call'),
          eq(flowWait.childInstanceId, processInstanceId),
          isNull(flowWait.firedAt),
        ),
      )
      .limit(1);
    if (caller) throw new ApiError(409, 'flowCalledInstance', { caller: caller.piid ?? '' });
    const ended = await endInstance(tx as unknown as Db, processInstanceId, reason, {
      userId: ctx.userId,
      tenantId: ctx.tenantId === DEFAULT_TENANT_ID ? undefined : ctx.tenantId,
    });
    if (!ended) throw notFound();
  });
}

/** The timeline's line for an instance ended before its end (no element of the diagram has this id). */
const ENDED_STEP = '__ended';

/** Why a called instance ends when the call activity that started it no longer waits (stored as is). */
const CALL_WITHDRAWN = '调用它的活动已撤销 / the call activity that started it was withdrawn';

/** The reason a called instance ends with when its caller ends (it is stored, in both languages). */
const CALLER_ENDED = '调用它的流程已结束 / the process that called it ended';
const callerEnded = (reason: string) =>
  reason.startsWith(CALLER_ENDED) ? reason : `${CALLER_ENDED}: ${reason}`.slice(0, 500);

/**
 * Ends a running instance before its end (state `deleted`): its waiting tasks are cancelled (they leave every
 * list), nothing it waited on fires any more (timers, catches), and the instances its call activities
 * started end too, and theirs, in the same transaction. Answers false when it was not running.
 */
async function endInstance(
  tx: Db,
  processInstanceId: string,
  reason: string,
  by: { userId?: string; tenantId?: string } = {},
): Promise<boolean> {
  const now = new Date();
  const where = [eq(flowInstance.processInstanceId, processInstanceId), eq(flowInstance.state, 'running')];
  if (by.tenantId) where.push(eq(flowInstance.tenantId, by.tenantId));
  const [instance] = await tx
    .update(flowInstance)
    .set({
      state: 'deleted',
      deleteReason: reason.slice(0, 500),
      endTime: now,
      updateTime: now,
      engineState: null,
      ...(by.userId ? { updateUser: by.userId } : {}),
    })
    .where(and(...where))
    .returning({ id: flowInstance.id, tenantId: flowInstance.tenantId });
  if (!instance) return false;
  await tx
    .update(flowTask)
    .set({ status: 2, endTime: now, comment: reason.slice(0, 1000) })
    .where(and(eq(flowTask.processInstanceId, processInstanceId), eq(flowTask.status, 0)));
  // the timeline records it: what was under way ends now, with the reason, and a last line says who ended it
  await tx
    .update(flowHistory)
    .set({ endTime: now, comment: sql`coalesce(${flowHistory.comment}, ${reason.slice(0, 1000)})` })
    .where(and(eq(flowHistory.processInstanceId, processInstanceId), isNull(flowHistory.endTime)));
  await tx.insert(flowHistory).values({
    tenantId: instance.tenantId,
    processInstanceId,
    executionId: `${ENDED_STEP}${processInstanceId}`.slice(0, 128),
    activityId: ENDED_STEP,
    activityName: '流程终止 / ended',
    activityType: 'EndEvent',
    assignee: by.userId ?? null,
    comment: reason.slice(0, 1000),
    startTime: now,
    endTime: now,
  });
  // nothing it waited on fires any more; the children it waited for end with it
  const waits = await tx
    .update(flowWait)
    .set({ firedAt: now })
    .where(and(eq(flowWait.processInstanceId, processInstanceId), isNull(flowWait.firedAt)))
    .returning({ kind: flowWait.kind, childInstanceId: flowWait.childInstanceId });
  await endChildren(tx, waits, callerEnded(reason), by.userId);
  return true;
}

/** Ends, with `reason`, the child instances of call waits just given up (their caller no longer waits). */
async function endChildren(
  tx: Db,
  waits: { kind: string; childInstanceId: string | null }[],
  reason: string,
  userId?: string,
) {
  for (const w of waits)
    if (w.kind === 'call' && w.childInstanceId) await endInstance(tx, w.childInstanceId, reason, { userId });
}

/** Removes deployments; refused while their instances run unless `cascade` ends those instances too. */
export async function deleteDeployments(
  db: Db,
  ctx: RequestContext,
  deploymentIds: string[],
  cascade: boolean,
) {
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const defs = await tx
      .select({ id: flowDefinition.id, pdid: flowDefinition.processDefinitionId })
      .from(flowDefinition)
      .where(and(inArray(flowDefinition.deploymentId, deploymentIds), notDeleted(flowDefinition.isDeleted)));
    if (!defs.length) throw notFound();
    const running = await tx
      .select({ piid: flowInstance.processInstanceId })
      .from(flowInstance)
      .where(
        and(
          inArray(
            flowInstance.definitionId,
            defs.map((d) => d.id),
          ),
          eq(flowInstance.state, 'running'),
        ),
      );
    if (running.length && !cascade)
      throw new FieldInputError('deploymentIds', {
        zh: `该部署仍有 ${running.length} 个运行中的流程实例,确认后将一并终止`,
        en: `${running.length} running instance(s) use this deployment; confirm to end them too`,
      });
    // (an instance called by another one already ended with its caller)
    for (const r of running) await endInstance(tx, r.piid, 'deployment removed', { userId: ctx.userId });
    await tx
      .update(flowDefinition)
      .set({ isDeleted: 1, updateUser: ctx.userId, updateTime: new Date() })
      .where(inArray(flowDefinition.deploymentId, deploymentIds));
    await tx
      .update(flowDeployment)
      .set({ isDeleted: 1, updateUser: ctx.userId, updateTime: new Date() })
      .where(inArray(flowDeployment.id, deploymentIds));
  });
}
