/**
 * The workflow's http actions, on the platform outbox (platform/outbox.ts). A network call of a service task
 * never runs inside a transaction: a slow endpoint would hold the instance's row lock and a database
 * connection (on PGlite, the database) for its seconds. The transaction that reaches the task checks the
 * address and writes the request down as a flow_wait row (kind `action`, due at once) — the outbox's job,
 * kept where the instance waits for it —, in the same commit as the state in which the task waits; after
 * that commit the request that caused it makes the call and continues the instance in a new transaction,
 * which ends the job. Crash safety: the job is claimed for a lease (a minute) before the call; if the server
 * dies before the instance went on, any server's poller makes the call again — at least once, with the same
 * Idempotency-Key (the row's id). A call that gets no answer is tried again after 1, 2, 4 and 8 minutes;
 * then the row keeps the last error (`spec`) and the instance waits, and 流程跟踪 can end it. Meanwhile the
 * instance stays usable: its other tasks are completed as usual. A row the instance no longer waits on is
 * fired by recordWaits or endInstance: its job is not run any more.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../../platform/db';
import { enqueue, type JobKind, type OutboxStore, outboxTransaction } from '../../../platform/outbox';
import { type HttpRequest, prepareHttp, sendHttp } from '../actions';
import type { ActionRequest } from '../runtime/recorder';
import type { Trigger } from '../runtime/run';
import { flowInstance, flowWait } from '../tables';

/**
 * Runs `work` in a transaction and, once it has committed, the network calls it asked for (and what those
 * lead to). Every route that moves instances uses it; inside another one it is just that one's transaction.
 */
export const flowTransaction = outboxTransaction;

/** An http action's job: the request prepareHttp wrote down, and the waiting task its answer moves on. */
interface HttpActionJob {
  processInstanceId: string;
  executionId: string;
  activityId: string;
  name: string;
  request: HttpRequest;
}

const HTTP_ACTION = 'flow.http';

/** flow_wait as the outbox's store of http actions: the row the instance waits on is the job. */
const ACTION_ROWS: OutboxStore<HttpActionJob> = {
  table: flowWait,
  columns: {
    id: flowWait.id,
    dueAt: flowWait.dueAt,
    attempts: flowWait.repeat,
    lastError: flowWait.spec,
    claimedBy: flowWait.claimedBy,
    doneAt: flowWait.firedAt,
  },
  scope: eq(flowWait.kind, 'action'),
  row: (_kind, job, tenantId) => ({
    tenantId,
    kind: 'action',
    processInstanceId: job.processInstanceId,
    executionId: job.executionId,
    activityId: job.activityId,
    name: job.name.slice(0, 255),
    payload: JSON.stringify(job.request),
  }),
  payload: (row) => ({
    processInstanceId: String(row.processInstanceId ?? ''),
    executionId: String(row.executionId ?? ''),
    activityId: String(row.activityId ?? ''),
    name: String(row.name ?? ''),
    request: JSON.parse(String(row.payload ?? 'null')) as HttpRequest,
  }),
};

type Advance = (tx: Db, processInstanceId: string, trigger: Trigger) => Promise<boolean>;

/**
 * The http action's kind of job: the call, then the instance moved on by its answer in a transaction of its
 * own, which ends the job (`advance` is instances.ts', which registers it).
 */
export function httpActions(advance: Advance): JobKind<HttpActionJob> {
  return {
    kind: HTTP_ACTION,
    store: ACTION_ROWS,
    run: async (job, ctx) => {
      const { processInstanceId, executionId, request } = job.payload;
      if (!request || !processInstanceId || !executionId) return;
      const output = await sendHttp(request, job.id);
      await ctx.transaction(async (tx) => {
        // the instance first, as every other writer locks it
        await tx
          .select({ id: flowInstance.id })
          .from(flowInstance)
          .where(eq(flowInstance.processInstanceId, processInstanceId))
          .for('update');
        // withdrawn meanwhile (the instance ended, an event interrupted the task), or retaken after the lease
        if (!(await ctx.complete(tx))) return;
        await advance(tx, processInstanceId, { kind: 'execution', executionId, output });
      });
    },
  };
}

/** Writes an http action down to be run after the commit (once: a recovery announces a waiting one again). */
export async function deferAction(
  tx: Db,
  instance: typeof flowInstance.$inferSelect,
  action: ActionRequest,
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
  const job: HttpActionJob = {
    processInstanceId: instance.processInstanceId,
    executionId: action.executionId,
    activityId: action.activityId,
    name: action.name,
    request: prepareHttp(instance, action, vars),
  };
  await enqueue(tx, HTTP_ACTION, job, { tenantId: instance.tenantId });
}
