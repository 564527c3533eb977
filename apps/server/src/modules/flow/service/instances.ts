/**
 * Instances: started (by the start routes, a call activity, a timer, a message or a signal), moved on by a
 * trigger (advance) with their row locked, and what each run asks of the service done in the same
 * transaction (apply): call activities' children started, actions run (an http one after the commit,
 * outbox.ts), timers' reminders sent, thrown signals delivered, an ended child's caller moved on.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { RequestContext } from '../../../platform/auth/context';
import type { Db } from '../../../platform/db';
import { ApiError, FieldInputError, notFound } from '../../../platform/http/errors';
import { registerJob } from '../../../platform/outbox';
import { notDeleted } from '../../../platform/sql';
import { performAction } from '../actions';
import { missingList } from '../approvers';
import { continueProcess, type RunResult, startProcess, type Trigger } from '../runtime/run';
import { startsByHand } from '../runtime/starts';
import { flowDefinition, flowInstance, flowWait } from '../tables';
import { FLOW_TEXTS, textOf } from '../texts';
import { definitionVisibleTo, visibleDefinition } from './deploy';
import { deferAction, httpActions } from './outbox';
import { callerWaitOn, instanceAfter, record } from './record';
import { remind } from './waits';

// an http action's job moves its instance on, after the call, by advance (below)
registerJob(httpActions(advance));

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
  const result = await startProcess(processInstanceId, def.xml, variables, input.entry).catch((e) => {
    // a countersign it begins with, started without its approvers: the starter is told which
    throw missingList(def.xml, e) ?? e;
  });
  const now = new Date();
  const [instance] = await t
    .insert(flowInstance)
    .values({
      // what its first run left: `apply` below knows the row is new (nothing to update or look up)
      ...instanceAfter(result, now),
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

/** The definition a caller of the tenant may start by hand, checked (404, suspended, started by events only). */
export async function startableDefinition(db: Db, ctx: Actor, processDefinitionId: string) {
  const def = await visibleDefinition(db, ctx.tenantId, processDefinitionId);
  if (!def) throw notFound();
  if (def.suspended) throw new FieldInputError('processDefinitionId', FLOW_TEXTS.suspended);
  if (!(await startsByHand(def.xml)))
    throw new FieldInputError('processDefinitionId', FLOW_TEXTS.startsByEventOnly);
  return def;
}

/** How deep one request may drive instances (calls within calls, actions after actions). */
const MAX_STEPS = 64;

/**
 * Records a run, then does what it asks of the service, in the same transaction: starts the children of
 * call activities, runs service tasks' actions, sends the reminders of timers that fired, broadcasts the
 * signals it threw, and continues the caller of an instance that ended.
 */
export async function apply(
  tx: Db,
  instance: Instance,
  run: RunResult,
  depth: number,
  /** the instance's row was just inserted with this run's state: it has no tasks, waits or state to update */
  isNew = false,
): Promise<void> {
  if (depth > MAX_STEPS)
    throw new ApiError(409, 'flowStuck', { reason: 'the process does not come to a wait (too many steps)' });
  // a run that ended and asks nothing more of the service (no call, action or signal to handle first): the
  // wait of its caller, if a call activity started it, is fired in the statement that records the end
  const endsQuietly =
    run.ended && !isNew && !run.calls.length && !run.actions.length && !run.thrownSignals.length;
  const firedByRecord = await record(tx, instance, run, isNew, endsQuietly);
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
    const [call] = endsQuietly
      ? firedByRecord
      : await tx.update(flowWait).set({ firedAt: new Date() }).where(callerWaitOn(instance)).returning();
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
export async function definitionXml(tx: Db, definitionId: string): Promise<string> {
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
    throw new FieldInputError(
      'processDefinitionId',
      textOf(FLOW_TEXTS.calledNotDeployed, { key: call.calledElement }),
    );
  if (!(await startsByHand(def.xml)))
    throw new FieldInputError(
      'processDefinitionId',
      textOf(FLOW_TEXTS.calledByEventOnly, { key: call.calledElement }),
    );
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
  if (kind === 'message' && starts.length > 1) {
    const keys = starts.map((r) => r.def.processKey);
    throw new FieldInputError(
      'name',
      textOf(FLOW_TEXTS.messageStartsMany, { name, keys: { zh: keys.join('、'), en: keys.join(', ') } }),
    );
  }
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
