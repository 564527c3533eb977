/**
 * What a run announces, recorded: the user tasks, calls and actions that began waiting, the history of what
 * began and ended (written to flow_history), the signals thrown and the timers fired. The engine's listener
 * is the recorder's; the run (run.ts) reads what it gathered when the engine has settled.
 */
import { EventEmitter } from 'node:events';
import { ACTION_TASKS, actionOf, mapVariables } from './extensions';
import type { ModdleElement, Ref } from './moddle';
import { PROCESS_SCOPE, SCOPE_PREFIX } from './normalize';
import { iterationOf, processVariablesOf } from './variables';

export interface WaitingTask {
  executionId: string;
  activityId: string;
  name: string;
  /** an iteration of a multi-instance task: its element variable and its index (`loopCounter`) */
  variables?: Record<string, unknown>;
  assignee?: string;
  candidateUsers?: string;
  candidateGroups?: string;
}

export interface HistoryEvent {
  executionId: string;
  activityId: string;
  activityName?: string;
  activityType: string;
  at: Date;
  kind: 'start' | 'end';
}

/** A call activity that began waiting: the service starts its child instance. */
export interface CallRequest {
  executionId: string;
  activityId: string;
  calledElement: string;
  /** the child's variables, by the call's `in` mappings */
  input: Record<string, unknown>;
}

/** A message or signal catch (event, boundary event, receive task) now waiting. */
export interface Subscription {
  activityId: string;
  executionId: string;
  kind: 'message' | 'signal';
  name: string;
  /** the message's or signal's element id, by which the engine delivers it */
  refId: string;
}

interface CatchingBehaviour {
  eventDefinitions?: { type?: string; behaviour?: { messageRef?: Ref; signalRef?: Ref } }[];
  messageRef?: Ref;
}
/** The messages and signals an element catches. */
function catchesOf(
  id: string,
  executionId: string,
  behaviour: CatchingBehaviour | undefined,
): Subscription[] {
  const out: Subscription[] = [];
  const add = (kind: 'message' | 'signal', ref: Ref | undefined) => {
    if (ref?.id) out.push({ activityId: id, executionId, kind, name: ref.name ?? ref.id, refId: ref.id });
  };
  for (const d of behaviour?.eventDefinitions ?? []) {
    add('message', d.behaviour?.messageRef);
    add('signal', d.behaviour?.signalRef);
  }
  if (!behaviour?.eventDefinitions?.length) add('message', behaviour?.messageRef);
  return out;
}

/**
 * What the instance waits to hear: the message and signal catches among its waiting elements (events,
 * boundary events — an event sub-process's start among them, see scopeEventSubProcesses — receive tasks).
 */
export function subscriptionsOf(postponed: Postponed[]): Subscription[] {
  return postponed.flatMap((p) =>
    catchesOf(p.id, p.executionId ?? '', p.owner?.behaviour as CatchingBehaviour | undefined),
  );
}

/** A service-type task waiting for the service to run its named action. */
export interface ActionRequest {
  executionId: string;
  activityId: string;
  name: string;
  /** what the action is asked to do: its `flowable:field`s / extension properties, as written */
  action: string;
  fields: Record<string, string>;
}

/** An element that waits, as the engine lists it (at any depth, see allPostponed in run.ts). */
export interface Postponed {
  executionId: string;
  id: string;
  type?: string;
  signal(m: object): void;
  getPostponed?: () => Postponed[];
  /** a multi-instance task's iterations wait in its own execution */
  owner?: { execution?: { getPostponed?: () => Postponed[] }; behaviour?: object };
}

/** A recorder for one run: its listener goes to the engine. */
export function recorder() {
  const listener = new EventEmitter();
  // every event the engine announces counts (settle waits until none comes)
  let events = 0;
  const emit = listener.emit.bind(listener);
  listener.emit = (event: string | symbol, ...args: unknown[]) => {
    events++;
    return emit(event, ...args);
  };
  const waiting = new Map<string, WaitingTask>();
  const calls = new Map<string, CallRequest>();
  const actions = new Map<string, ActionRequest>();
  const thrownSignals: string[] = [];
  const firedTimers: { activityId: string; attachedTo?: string }[] = [];
  const history: HistoryEvent[] = [];
  let ended = false;
  type Api = {
    id: string;
    type: string;
    name?: string;
    executionId: string;
    owner?: { behaviour?: ModdleElement; attachedTo?: { id: string; type: string } };
    content?: {
      output?: Record<string, unknown>;
      calledElement?: string;
      state?: string;
      message?: { id?: string; name?: string; messageType?: string };
      parent?: { id?: string };
    };
    environment: { output: Record<string, unknown>; variables: Record<string, unknown> };
    signal?: (m: object) => void;
  };
  const event = (api: Api, kind: 'start' | 'end') =>
    // what scopeEventSubProcesses added is not in the diagram: the timeline leaves it out
    api.id.startsWith(SCOPE_PREFIX) ||
    history.push({
      executionId: api.executionId,
      activityId: api.id,
      activityName: api.name,
      activityType: api.type.replace('bpmn:', ''),
      at: new Date(),
      kind,
    });
  listener.on('activity.start', (api: Api) => event(api, 'start'));
  listener.on('activity.end', (api: Api) => {
    event(api, 'end');
    // a terminate end event of the process's own path ends the process, event sub-processes and all (in
    // the scope that holds the path it would end only the scope)
    // (the engine announces the end of an event with a definition under the definition's type)
    if (
      api.owner?.behaviour?.$type === 'bpmn:EndEvent' &&
      api.content?.parent?.id?.startsWith(PROCESS_SCOPE) &&
      (api.owner?.behaviour?.eventDefinitions as unknown as { type?: string }[] | undefined)?.some(
        (d) => d.type === 'bpmn:TerminateEventDefinition',
      )
    )
      ended = true;
    waiting.delete(api.executionId);
    calls.delete(api.executionId);
    actions.delete(api.executionId);
    // what a completed user task, call or action was signalled with becomes output that gateways read
    if (
      (api.type === 'bpmn:UserTask' || api.type === 'bpmn:CallActivity' || ACTION_TASKS.has(api.type)) &&
      api.content?.output
    )
      Object.assign(api.environment.output, api.content.output);
  });
  listener.on(
    'flow.take',
    (flow: { id: string; type: string; executionId?: string }) =>
      flow.id.startsWith(SCOPE_PREFIX) ||
      history.push({
        executionId: flow.executionId ?? `${flow.id}-${history.length}`,
        activityId: flow.id,
        activityType: 'sequenceFlow',
        at: new Date(),
        kind: 'end',
      }),
  );
  listener.on('activity.call', (api: Api) => {
    const vars = {
      ...processVariablesOf(api.environment.variables),
      ...api.environment.output,
      ...iterationOf(api),
    };
    calls.set(api.executionId, {
      executionId: api.executionId,
      activityId: api.id,
      calledElement: api.content?.calledElement ?? '',
      input: mapVariables(api.owner?.behaviour as never, 'in', vars),
    });
  });
  listener.on('activity.signal', (api: Api) => {
    if (api.content?.message?.messageType === 'signal')
      thrownSignals.push(api.content.message.name ?? api.content.message.id ?? '');
  });
  listener.on('activity.timeout', (api: Api) => {
    if (api.content?.state === 'cancel') return;
    firedTimers.push({
      activityId: api.id,
      attachedTo: api.owner?.attachedTo?.type === 'bpmn:UserTask' ? api.owner.attachedTo.id : undefined,
    });
  });
  listener.on('activity.wait', (api: Api) => {
    if (api.type === 'bpmn:ManualTask') {
      // a manual task is done outside the system: it passes
      setImmediate(() => api.signal?.({}));
      return;
    }
    if (ACTION_TASKS.has(api.type)) {
      const { action, fields } = actionOf(api.owner?.behaviour as never);
      actions.set(api.executionId, {
        executionId: api.executionId,
        activityId: api.id,
        name: api.name ?? api.id,
        action: action ?? '',
        fields,
      });
      return;
    }
    if (api.type !== 'bpmn:UserTask') return;
    const b = api.owner?.behaviour ?? ({} as ModdleElement);
    // an iteration's element variable: the task's own (a countersign), or its multi-instance sub-process's
    const local = iterationOf(api);
    waiting.set(api.executionId, {
      executionId: api.executionId,
      activityId: api.id,
      name: api.name ?? api.id,
      ...(Object.keys(local).length ? { variables: local } : {}),
      assignee: b.assignee,
      candidateUsers: b.candidateUsers,
      candidateGroups: b.candidateGroups,
    });
  });
  return {
    listener,
    events: () => events,
    done: () => ended,
    end: () => {
      ended = true;
    },
    waiting,
    calls,
    actions,
    thrownSignals,
    firedTimers,
    history,
  };
}

export type Recorder = ReturnType<typeof recorder>;
