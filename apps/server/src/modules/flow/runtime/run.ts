/**
 * A run of an instance: started (startProcess) or recovered from its saved state and moved on by a trigger
 * (continueProcess), then let run until every path waits or the process ends; what it announced is
 * answered (RunResult) for the service to write down. A kept engine (live.ts) spares a recovery.
 */
import type { Engine } from 'bpmn-engine';
import { newEngine, sourceOf, stateToSave } from './engine';
import { ACTION_TASKS, mapVariables } from './extensions';
import { keep, type LiveEngine, relayEmit, takeLive } from './live';
import {
  type ActionRequest,
  type CallRequest,
  type HistoryEvent,
  type Postponed,
  type Recorder,
  recorder,
  type Subscription,
  subscriptionsOf,
  type WaitingTask,
} from './recorder';
import type { DurableTimers, LiveTimer } from './timers';
import { ENTRY } from './variables';

/** What a run answers: what the service writes (state, tasks, history, waits) and does (calls, actions). */
export interface RunResult {
  state: string;
  ended: boolean;
  /** user tasks that began waiting in this run */
  waiting: WaitingTask[];
  /** every execution still waiting after this run (a task not among them has been withdrawn by the process) */
  stillWaiting: string[];
  history: HistoryEvent[];
  variables: Record<string, unknown>;
  /** every timer the instance waits on after this run */
  timers: LiveTimer[];
  /** call activities that began waiting in this run */
  calls: CallRequest[];
  /** every message and signal catch waiting after this run */
  subscriptions: Subscription[];
  /** service-type tasks waiting for their action */
  actions: ActionRequest[];
  /** signals this run threw (the service broadcasts them to the tenant's other instances) */
  thrownSignals: string[];
  /** timers that fired in this run, with the user task a boundary timer is attached to */
  firedTimers: { activityId: string; attachedTo?: string }[];
  /**
   * What the service need not look up (a run of a kept engine, see LiveEngine, knows what waited before it):
   * `fresh` — every task in `waiting` began in this run (none is in the database yet); `quiet` — nothing
   * but user tasks waited before the run (no timer, catch, call or action row is open); `kept` — every user
   * task that waited before the run, but the one it completed, still waits (none is to be withdrawn, even
   * when the instance ended).
   */
  known?: { fresh: boolean; quiet: boolean; kept: boolean };
}

/** What waits, at any depth: inside sub-processes and the iterations of multi-instance tasks. */
function allPostponed(list: Postponed[], seen = new Set<string>()): Postponed[] {
  return list.flatMap((a) => {
    if (seen.has(a.executionId)) return [];
    seen.add(a.executionId);
    return [
      a,
      ...allPostponed(a.getPostponed?.() ?? [], seen),
      ...allPostponed(a.owner?.execution?.getPostponed?.() ?? [], seen),
    ];
  });
}

/** Lets the engine run until every path waits or the process ends (it runs on the event loop). */
async function settle(engine: { state: string }, rec: Recorder, before: Set<string>) {
  const news = () =>
    [...rec.waiting.keys(), ...rec.calls.keys(), ...rec.actions.keys()].some((k) => !before.has(k));
  // the engine runs synchronously but for a few steps deferred a turn (a manual task passing, a start timer):
  // three turns of the event loop in which it announces nothing mean it has come to rest (the row of the
  // instance is locked meanwhile, so it is not waited on longer than that)
  let quiet = 0;
  let seen = rec.events();
  for (let i = 0; i < 50 && quiet < 3; i++) {
    await new Promise((r) => setImmediate(r));
    if (rec.done() || engine.state !== 'running') return;
    if (news()) {
      await new Promise((r) => setImmediate(r));
      return;
    }
    const now = rec.events();
    quiet = now === seen ? quiet + 1 : 0;
    seen = now;
  }
}

/**
 * What the engine lists as pending without anyone or anything it waits for: an arrival on a flow (one held at a
 * join whose other arrivals can no longer come is pending for ever) and the containers of what waits (what
 * they hold is listed on its own, allPostponed).
 */
const PASSING = new Set([
  'bpmn:SequenceFlow',
  'bpmn:Association',
  'bpmn:SubProcess',
  'bpmn:Transaction',
  'bpmn:AdHocSubProcess',
]);

/**
 * `variables` are the instance's variables after this run (the engine keeps them in its state too). An
 * instance in which nothing waits any more (no task, timer, call, subscription, no token held anywhere) has
 * finished, whatever state the engine reports: it must never stay "running" with nothing anyone could do —
 * arrivals still pending on flows (PASSING) are not something anyone could do.
 */
async function finish(
  engine: Engine,
  execution: { getPostponed(): unknown[] },
  rec: Recorder,
  timers: DurableTimers,
  variables: Record<string, unknown>,
  /** what already waited before the run's trigger (a recovery re-announces it) */
  before = new Set<string>(),
  /** the engine, kept for the instance's next run when it still waits (keep) */
  kept?: Omit<LiveEngine, 'state'>,
  /** a kept engine's run: what waited before its trigger, and the execution the trigger completed */
  reusedFrom?: { waited: string[]; quiet: boolean; target?: string },
): Promise<RunResult> {
  await settle(engine as unknown as { state: string }, rec, before);
  const postponed = allPostponed(execution.getPostponed() as Postponed[]);
  const nothingWaits = !rec.waiting.size && !postponed.some((p) => !PASSING.has(p.type ?? ''));
  const ended = rec.done() || engine.state === 'idle' || nothingWaits;
  // an instance that ended keeps no state (the service saves none)
  const state = ended ? undefined : await engine.getState();
  // a timer counts while its element waits: one inside a scope that an event cancelled after a recovery
  // is not always cleared by the engine, but its element no longer waits
  const waitingIds = new Set(postponed.map((p) => p.executionId));
  const saved = state ? stateToSave(state as never) : '';
  if (kept && !ended) keep({ ...kept, state: saved });
  return {
    state: saved,
    ended,
    waiting: [...rec.waiting.values()],
    stillWaiting: postponed.map((p) => p.executionId).filter(Boolean),
    history: rec.history,
    variables,
    timers: ended
      ? []
      : [...timers.live]
          .filter((t) => waitingIds.has(t.owner?.executionId ?? ''))
          .map((t) => ({
            executionId: t.owner?.executionId ?? '',
            activityId: t.owner?.id ?? '',
            expireAt: t.expireAt,
          })),
    calls: [...rec.calls.values()],
    subscriptions: ended ? [] : subscriptionsOf(postponed),
    actions: [...rec.actions.values()],
    thrownSignals: rec.thrownSignals,
    firedTimers: rec.firedTimers,
    ...(reusedFrom
      ? {
          known: {
            fresh: true,
            quiet: reusedFrom.quiet,
            // (an instance that ended waits on nothing, whatever the engine still lists)
            kept: reusedFrom.waited.every(
              (id) => id === reusedFrom.target || (!ended && postponed.some((p) => p.executionId === id)),
            ),
          },
        }
      : {}),
  };
}

/**
 * Starts a process with its variables and runs it to its first waits. `entry`: the start event that caught
 * the message or signal (or whose timer fired) that starts it; without it, its none start events run.
 */
export async function startProcess(
  name: string,
  xml: string,
  variables: Record<string, unknown>,
  entry?: string,
): Promise<RunResult> {
  const rec = recorder();
  const processVariables = { ...variables };
  const { engine, timers } = await newEngine({ name, sourceContext: await sourceOf(xml) }, processVariables);
  const relay = { target: rec.listener, emit: relayEmit };
  const ended = () => relay.target === rec.listener && rec.end();
  engine.once('end', ended);
  const execution = await engine.execute({
    listener: relay,
    variables: entry ? { ...variables, [ENTRY]: entry } : variables,
  } as never);
  try {
    return await finish(engine, execution, rec, timers, variables, undefined, {
      name,
      xml,
      engine,
      execution,
      timers,
      processVariables,
      relay,
    });
  } finally {
    engine.removeListener('end', ended);
  }
}

/**
 * A saved state whose diagram the engine will find: it looks the diagram up by the definitions' id, and a
 * state saved while the instance's diagram had another (a file without one, its id given since) names
 * what it no longer is. An instance runs one diagram: its state's one definition is that diagram.
 */
function recoverable(state: { definitions?: { id?: string; source?: unknown }[] }, id: string) {
  const [only, ...more] = state.definitions ?? [];
  if (only && !more.length && !only.source && only.id !== id) only.id = id;
  return state;
}

/** What moves a waiting instance on: a task or call completed, an action done, a message or signal. */
export type Trigger =
  | { kind: 'execution'; executionId: string; output: Record<string, unknown> }
  /** a call activity's child ended with these variables: the call's `out` mappings pick what returns */
  | { kind: 'call'; executionId: string; childVariables: Record<string, unknown> }
  | { kind: 'message' | 'signal'; name: string; output: Record<string, unknown> }
  /** nothing but time: due timers fire on recovery */
  | { kind: 'time' };

/**
 * Recovers a saved instance, applies what moves it on, and runs on to the next waits. Timers already due
 * fire as the instance is recovered, whatever the trigger.
 */
export async function continueProcess(
  name: string,
  /** the diagram the instance runs (its definition's) */
  xml: string,
  savedState: string,
  trigger: Trigger,
  variables: Record<string, unknown>,
): Promise<RunResult> {
  const rec = recorder();
  const reused = trigger.kind === 'time' ? undefined : takeLive(name, xml, savedState);
  let engine: Engine;
  let timers: DurableTimers;
  let processVariables: Record<string, unknown>;
  let relay: LiveEngine['relay'];
  if (reused) {
    ({ engine, timers, processVariables, relay } = reused);
    for (const k of Object.keys(processVariables)) delete processVariables[k];
    Object.assign(processVariables, variables);
    relay.target = rec.listener;
  } else {
    processVariables = { ...variables };
    ({ engine, timers } = await newEngine({ name, sourceContext: await sourceOf(xml) }, processVariables));
    engine.recover(recoverable(JSON.parse(savedState), (await sourceOf(xml)).id));
    relay = { target: rec.listener, emit: relayEmit };
  }
  const ended = () => relay.target === rec.listener && rec.end();
  engine.once('end', ended);
  const execution = reused ? reused.execution : await engine.resume({ listener: relay } as never);
  if (!reused) await new Promise((r) => setImmediate(r));
  const postponed = allPostponed(execution.getPostponed() as Postponed[]);
  // what the recovery re-announced is kept: the service writes only tasks, calls and timers it does not
  // know yet, and a timer that came due fires during the recovery itself
  const before = new Set([...rec.waiting.keys(), ...rec.calls.keys(), ...rec.actions.keys()]);
  // a kept engine: what waits before the trigger (its tasks, and whether anything else — a timer, a catch, a
  // call, an action — has a flow_wait row)
  const reusedFrom = reused
    ? {
        // the user tasks (the service's task rows)
        waited: postponed.filter((p) => p.type === 'bpmn:UserTask').map((p) => p.executionId),
        quiet:
          timers.live.size === 0 &&
          subscriptionsOf(postponed).length === 0 &&
          !postponed.some((p) => p.type === 'bpmn:CallActivity' || ACTION_TASKS.has(p.type ?? '')),
        target: trigger.kind === 'execution' || trigger.kind === 'call' ? trigger.executionId : undefined,
      }
    : undefined;
  let output: Record<string, unknown> = {};
  if (trigger.kind === 'execution' || trigger.kind === 'call') {
    const target = postponed.find((a) => a.executionId === trigger.executionId);
    if (!target) throw new Error('the task is no longer waiting in the process');
    output =
      trigger.kind === 'call'
        ? mapVariables(target.owner?.behaviour as never, 'out', trigger.childVariables)
        : trigger.output;
    Object.assign(processVariables, output);
    target.signal(output);
  } else if (trigger.kind === 'message' || trigger.kind === 'signal') {
    const subs = subscriptionsOf(postponed).filter((c) => c.kind === trigger.kind && c.name === trigger.name);
    if (!subs.length) throw new Error(`no ${trigger.kind} "${trigger.name}" is awaited`);
    output = trigger.output;
    Object.assign(processVariables, output);
    // the engine delivers by the message's (or signal's) id: every catch of it in the instance hears it
    for (const id of new Set(subs.map((c) => c.refId)))
      (execution as unknown as { signal(m: object): void }).signal({ id, ...output });
  }
  try {
    return await finish(
      engine,
      execution,
      rec,
      timers,
      { ...variables, ...output },
      before,
      { name, xml, engine, execution, timers, processVariables, relay },
      reusedFrom,
    );
  } finally {
    engine.removeListener('end', ended);
  }
}
