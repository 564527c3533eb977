import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { RUNNABLE_BPMN_ELEMENTS } from '@smart/contracts';
import type { Engine } from 'bpmn-engine';
import { checkExpression, engineExpressions } from './expressions';

const require = createRequire(import.meta.url);
/** camunda:assignee, camunda:candidateUsers, camunda:candidateGroups — what the designer's panel writes */
const camunda = require('camunda-bpmn-moddle/resources/camunda.json');
const moddleOptions = { camunda };
/**
 * Scripts never run here: bpmn-engine's default runs JavaScript with node:vm, which is no sandbox. Script
 * tasks and script conditions are refused at deployment; this makes sure nothing slips through anyway.
 */
const noScripts = {
  register() {},
  getScript() {
    return undefined;
  },
};

/** Elements the engine runs here; a diagram with anything else is refused at deployment, with its name. */
const RUNNABLE = new Set(RUNNABLE_BPMN_ELEMENTS);

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
  conditionExpression?: { body?: string; language?: string };
  targetRef?: ModdleElement;
  loopCharacteristics?: ModdleElement;
  messageFlows?: ModdleElement[];
  assignee?: string;
  candidateUsers?: string;
  candidateGroups?: string;
}

/** Why a diagram cannot be deployed, in both languages (the deployment answer names the file before it). */
export class DiagramRefusal extends Error {
  constructor(
    en: string,
    readonly zh: string,
  ) {
    super(en);
  }
}

const typeOf = (el: ModdleElement) => el.$type.replace('bpmn:', '');
const nameOf = (el: ModdleElement) => `${typeOf(el)} "${el.name ?? el.id}"`;
/** a condition the engine evaluates safely: one ${…} expression of expressions.ts, no script language */
const EXPRESSION = /^\s*\$\{[\s\S]*\}\s*$/;

/**
 * Parses and checks a diagram before it is deployed: well-formed BPMN 2.0, exactly one executable process,
 * only elements the engine runs, expressions in the supported language. Throws a DiagramRefusal naming
 * what cannot run, so nothing is deployed that would fail half-way.
 */
export async function inspectDiagram(xml: string): Promise<ProcessInfo> {
  if (!xml?.includes('definitions'))
    throw new DiagramRefusal('not a BPMN 2.0 document', '不是 BPMN 2.0 文档');
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
    const reason = (e as Error).message.split('\n')[0];
    throw new DiagramRefusal(`invalid BPMN: ${reason}`, `BPMN 文件有误: ${reason}`);
  }
  const roots = definitions.rootElements ?? [];
  // message flows would start the other pools' processes inside the engine (or reach a pool with none)
  for (const c of roots.filter((e) => e.$type === 'bpmn:Collaboration')) {
    const flow = c.messageFlows?.[0];
    if (flow)
      throw new DiagramRefusal(
        `${nameOf(flow)} between pools cannot be executed here`,
        `流程引擎不能执行池之间的 ${nameOf(flow)}`,
      );
  }
  const processes = roots.filter((e) => e.$type === 'bpmn:Process');
  const executable = processes.filter((p) => p.isExecutable);
  if (!executable.length)
    throw new DiagramRefusal(
      'no executable process (isExecutable="true")',
      '没有可执行的流程 (isExecutable="true")',
    );
  if (executable.length > 1)
    throw new DiagramRefusal('more than one executable process', '可执行的流程多于一个');
  // every element, at any depth, with the arrivals of its container's flows (<incoming> is optional in a file)
  const all: { el: ModdleElement; arrivals: number }[] = [];
  const collect = (elements: ModdleElement[] = []) => {
    const incoming = new Map<string, number>();
    for (const f of elements)
      if (f.$type === 'bpmn:SequenceFlow' && f.targetRef)
        incoming.set(f.targetRef.id, (incoming.get(f.targetRef.id) ?? 0) + 1);
    for (const el of elements) {
      all.push({ el, arrivals: incoming.get(el.id) ?? 0 });
      if (el.flowElements) collect(el.flowElements);
    }
  };
  collect(executable[0].flowElements);
  // what the engine has no behaviour for is named first; then what it would run wrongly
  for (const { el } of all)
    if (!RUNNABLE.has(el.$type))
      throw new DiagramRefusal(`${nameOf(el)} cannot be executed here`, `流程引擎不能执行 ${nameOf(el)}`);
  for (const { el, arrivals } of all) {
    if (el.eventDefinitions?.length) {
      const kinds = el.eventDefinitions.map(typeOf);
      const allowed = el.$type === 'bpmn:EndEvent' ? ['TerminateEventDefinition'] : [];
      if (el.$type !== 'bpmn:IntermediateThrowEvent' && !kinds.every((k) => allowed.includes(k)))
        throw new DiagramRefusal(
          `${nameOf(el)} (${kinds.join(', ')}) cannot be executed here`,
          `流程引擎不能执行 ${nameOf(el)} (${kinds.join(', ')})`,
        );
    }
    if (el.loopCharacteristics)
      throw new DiagramRefusal(
        `${nameOf(el)} with ${typeOf(el.loopCharacteristics)} cannot be executed here`,
        `流程引擎不能执行带 ${typeOf(el.loopCharacteristics)} 的 ${nameOf(el)}(多实例或循环)`,
      );
    // bpmn-engine passes every arrival through an inclusive join: the steps after it would run twice
    if (el.$type === 'bpmn:InclusiveGateway' && arrivals > 1)
      throw new DiagramRefusal(
        `${nameOf(el)} joining ${arrivals} flows cannot be executed here (an inclusive gateway may only split)`,
        `流程引擎不能执行汇合 ${arrivals} 条分支的 ${nameOf(el)}(包容网关只能用于分支)`,
      );
    const condition = el.conditionExpression;
    if (condition && (condition.language || !EXPRESSION.test(condition.body ?? '')))
      throw new DiagramRefusal(
        `the condition of ${nameOf(el)} is ${condition.language ? `a ${condition.language} script` : 'not a ${…} expression'}: only \${…} expressions are executed here`,
        `${nameOf(el)} 的条件${condition.language ? `是 ${condition.language} 脚本` : '不是 ${…} 表达式'}: 这里只执行 \${…} 表达式`,
      );
    for (const text of [condition?.body, el.assignee, el.candidateUsers, el.candidateGroups]) {
      if (text?.includes('${')) {
        for (const part of text.split(',').filter((p) => p.includes('${'))) {
          try {
            checkExpression(part.trim());
          } catch (e) {
            const reason = (e as Error).message;
            throw new DiagramRefusal(
              `expression "${part.trim()}" on ${nameOf(el)}: ${reason}`,
              `${nameOf(el)} 的表达式 "${part.trim()}" 有误: ${reason}`,
            );
          }
        }
      }
    }
  }
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

let engineModule: Promise<typeof import('bpmn-engine')> | undefined;
/** bpmn-engine, loaded with the first process that runs: most starts of the server run none */
const loadEngine = () => {
  engineModule ??= import('bpmn-engine');
  return engineModule;
};

/** Starts a process with its variables and runs it to its first waits. */
export async function startProcess(
  name: string,
  xml: string,
  variables: Record<string, unknown>,
): Promise<RunResult> {
  const { Engine } = await loadEngine();
  const rec = recorder();
  const engine = new Engine({
    name,
    source: xml,
    moddleOptions,
    expressions: engineExpressions,
    scripts: noScripts,
  } as never);
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
  const { Engine } = await loadEngine();
  const rec = recorder();
  const engine = new Engine({
    name,
    moddleOptions,
    expressions: engineExpressions,
    scripts: noScripts,
  } as never).recover(JSON.parse(savedState));
  engine.once('end', rec.end);
  const execution = await engine.resume({ listener: rec.listener } as never);
  await new Promise((r) => setImmediate(r));
  type Postponed = {
    executionId: string;
    id: string;
    signal(m: object): void;
    getPostponed?: () => Postponed[];
  };
  // what waits, at any depth of sub-processes (a sub-process lists what waits inside it)
  const seen = new Set<string>();
  const all = (list: Postponed[]): Postponed[] =>
    list.flatMap((a) => {
      if (seen.has(a.executionId)) return [];
      seen.add(a.executionId);
      return [a, ...all(a.getPostponed?.() ?? [])];
    });
  const postponed = all(execution.getPostponed() as Postponed[]);
  const target = postponed.find((a) => a.executionId === executionId);
  if (!target) throw new Error('the task is no longer waiting in the process');
  rec.waiting.clear();
  rec.history.length = 0;
  target.signal(output);
  return finish(engine, rec, { ...variables, ...output });
}
