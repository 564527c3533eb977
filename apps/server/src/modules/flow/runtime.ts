import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { Engine } from 'bpmn-engine';
import { checkExpression, engineExpressions } from './expressions';

const require = createRequire(import.meta.url);
/** camunda:assignee, camunda:candidateUsers, camunda:candidateGroups — what the designer's panel writes */
const camunda = require('camunda-bpmn-moddle/resources/camunda.json');
const moddleOptions = { camunda };

/** Elements the engine runs here; a diagram with anything else is refused at deployment, with its name. */
const RUNNABLE = new Set([
  'bpmn:StartEvent',
  'bpmn:EndEvent',
  'bpmn:UserTask',
  'bpmn:Task',
  'bpmn:ManualTask',
  'bpmn:ExclusiveGateway',
  'bpmn:ParallelGateway',
  'bpmn:InclusiveGateway',
  'bpmn:SubProcess',
  'bpmn:SequenceFlow',
  'bpmn:TextAnnotation',
  'bpmn:Association',
  'bpmn:DataObjectReference',
  'bpmn:DataObject',
  'bpmn:DataStoreReference',
  'bpmn:IntermediateThrowEvent',
]);

export interface ProcessInfo {
  processKey: string;
  name: string;
}

interface ModdleElement {
  $type: string;
  id: string;
  name?: string;
  isExecutable?: boolean;
  flowElements?: ModdleElement[];
  eventDefinitions?: ModdleElement[];
  conditionExpression?: { body?: string };
  assignee?: string;
  candidateUsers?: string;
  candidateGroups?: string;
}

/**
 * Parses and checks a diagram before it is deployed: well-formed BPMN 2.0, exactly one executable process,
 * only elements the engine runs, expressions in the supported language. Throws an Error with the reason.
 */
export async function inspectDiagram(xml: string): Promise<ProcessInfo> {
  if (!xml || !xml.includes('definitions')) throw new Error('not a BPMN 2.0 document');
  let definitions: { rootElements?: ModdleElement[] };
  try {
    const { default: BpmnModdle } = (await import('bpmn-moddle')) as unknown as {
      default: new (
        p: object,
      ) => { fromXML(x: string): Promise<{ rootElement: object; warnings: { message: string }[] }> };
    };
    const parsed = await new BpmnModdle(moddleOptions).fromXML(xml);
    definitions = parsed.rootElement as typeof definitions;
    const fatal = parsed.warnings.find((w) => /unparsable|unresolved reference/i.test(w.message));
    if (fatal) throw new Error(fatal.message);
  } catch (e) {
    throw new Error(`invalid BPMN: ${(e as Error).message.split('\n')[0]}`);
  }
  const processes = (definitions.rootElements ?? []).filter((e) => e.$type === 'bpmn:Process');
  const executable = processes.filter((p) => p.isExecutable);
  if (!executable.length) throw new Error('no executable process (isExecutable="true")');
  if (executable.length > 1) throw new Error('more than one executable process');
  const walk = (elements: ModdleElement[] = []) => {
    for (const el of elements) {
      if (!RUNNABLE.has(el.$type))
        throw new Error(`${el.$type.replace('bpmn:', '')} "${el.name ?? el.id}" cannot be executed here`);
      if ((el.$type === 'bpmn:StartEvent' || el.$type === 'bpmn:EndEvent') && el.eventDefinitions?.length) {
        const kinds = el.eventDefinitions.map((d) => d.$type.replace('bpmn:', ''));
        if (!kinds.every((k) => k === 'TerminateEventDefinition'))
          throw new Error(`${kinds.join(', ')} on "${el.name ?? el.id}" cannot be executed here`);
      }
      for (const text of [el.conditionExpression?.body, el.assignee, el.candidateUsers, el.candidateGroups]) {
        if (text && text.includes('${')) {
          for (const part of text.split(',').filter((p) => p.includes('${'))) {
            try {
              checkExpression(part.trim());
            } catch (e) {
              throw new Error(
                `expression "${part.trim()}" on "${el.name ?? el.id}": ${(e as Error).message}`,
              );
            }
          }
        }
      }
      if (el.flowElements) walk(el.flowElements);
    }
  };
  walk(executable[0].flowElements);
  return { processKey: executable[0].id, name: executable[0].name ?? executable[0].id };
}

export interface WaitingTask {
  executionId: string;
  activityId: string;
  name: string;
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

export interface RunResult {
  state: string;
  ended: boolean;
  waiting: WaitingTask[];
  history: HistoryEvent[];
  variables: Record<string, unknown>;
}

function recorder() {
  const listener = new EventEmitter();
  const waiting = new Map<string, WaitingTask>();
  const history: HistoryEvent[] = [];
  let ended = false;
  type Api = {
    id: string;
    type: string;
    name?: string;
    executionId: string;
    owner?: { behaviour?: ModdleElement };
    content?: { output?: Record<string, unknown> };
    environment: { output: Record<string, unknown> };
  };
  const event = (api: Api, kind: 'start' | 'end') =>
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
    waiting.delete(api.executionId);
    // what a completed user task was signalled with becomes process output that gateways read
    if (api.type === 'bpmn:UserTask' && api.content?.output)
      Object.assign(api.environment.output, api.content.output);
  });
  listener.on('flow.take', (flow: { id: string; type: string; executionId?: string }) =>
    history.push({
      executionId: flow.executionId ?? `${flow.id}-${history.length}`,
      activityId: flow.id,
      activityType: 'sequenceFlow',
      at: new Date(),
      kind: 'end',
    }),
  );
  listener.on('activity.wait', (api: Api) => {
    if (api.type !== 'bpmn:UserTask') return;
    const b = api.owner?.behaviour ?? ({} as ModdleElement);
    waiting.set(api.executionId, {
      executionId: api.executionId,
      activityId: api.id,
      name: api.name ?? api.id,
      assignee: b.assignee,
      candidateUsers: b.candidateUsers,
      candidateGroups: b.candidateGroups,
    });
  });
  return {
    listener,
    done: () => ended,
    end: () => {
      ended = true;
    },
    waiting,
    history,
  };
}

/** Lets the engine run until every path waits or the process ends (it runs on the event loop). */
async function settle(engine: { state: string }, rec: ReturnType<typeof recorder>) {
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setImmediate(r));
    if (rec.done() || engine.state !== 'running') return;
    if (rec.waiting.size) {
      await new Promise((r) => setImmediate(r));
      return;
    }
  }
}

/** `variables` are the instance's variables after this run (the engine keeps them in its state too). */
async function finish(
  engine: Engine,
  rec: ReturnType<typeof recorder>,
  variables: Record<string, unknown>,
): Promise<RunResult> {
  await settle(engine as unknown as { state: string }, rec);
  const state = await engine.getState();
  return {
    state: JSON.stringify(state),
    ended: rec.done() || engine.state === 'idle',
    waiting: [...rec.waiting.values()],
    history: rec.history,
    variables,
  };
}

/** Starts a process with its variables and runs it to its first waits. */
export async function startProcess(
  name: string,
  xml: string,
  variables: Record<string, unknown>,
): Promise<RunResult> {
  const rec = recorder();
  const engine = new Engine({ name, source: xml, moddleOptions, expressions: engineExpressions } as never);
  engine.once('end', rec.end);
  await engine.execute({ listener: rec.listener, variables } as never);
  return finish(engine, rec, variables);
}

/**
 * Recovers a saved instance, completes one waiting user task with its output, and runs on to the next
 * waits. `executionId` names the task's activity execution.
 */
export async function signalTask(
  name: string,
  savedState: string,
  executionId: string,
  output: Record<string, unknown>,
  variables: Record<string, unknown>,
): Promise<RunResult> {
  const rec = recorder();
  const engine = new Engine({ name, moddleOptions, expressions: engineExpressions } as never).recover(
    JSON.parse(savedState),
  );
  engine.once('end', rec.end);
  const execution = await engine.resume({ listener: rec.listener } as never);
  await new Promise((r) => setImmediate(r));
  const postponed = (
    execution.getPostponed() as {
      executionId: string;
      id: string;
      signal(m: object): void;
      getPostponed?: () => unknown[];
    }[]
  ).flatMap((a) => [a, ...((a.getPostponed?.() as (typeof a)[] | undefined) ?? [])]);
  const target = postponed.find((a) => a.executionId === executionId);
  if (!target) throw new Error('the task is no longer waiting in the process');
  rec.waiting.clear();
  rec.history.length = 0;
  target.signal(output);
  return finish(engine, rec, { ...variables, ...output });
}
