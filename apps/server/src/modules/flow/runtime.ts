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
  $attrs?: Record<string, string>;
  resources?: ModdleElement[];
  resourceRef?: ModdleElement;
  resourceAssignmentExpression?: { expression?: { body?: string } };
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

/**
 * A file's text in the encoding its XML declaration names (ISO-8859-1, GBK, UTF-16 …), UTF-8 when it names
 * none or one this runtime does not know; a byte-order mark wins over the declaration.
 */
export function decodeXml(buf: Buffer): string {
  if (buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf);
  if (buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf);
  const head = buf.subarray(0, 200).toString('latin1');
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declared ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  // the text is handed on already decoded: the declaration must no longer claim another encoding
  return decoder.decode(buf).replace(/^(\uFEFF?\s*<\?xml[^>]*\bencoding\s*=\s*["'])[^"']+/, '$1UTF-8');
}

/** The namespaces whose assignee / candidateUsers / candidateGroups attributes name a task's receivers. */
const ASSIGNMENT_NAMESPACES = new Set([
  'http://camunda.org/schema/1.0/bpmn',
  'http://flowable.org/bpmn',
  'http://activiti.org/bpmn',
]);
const ASSIGNMENT_ATTRS = ['assignee', 'candidateUsers', 'candidateGroups'] as const;

/** `user(a), group(b), c` → users and groups; a bare name is a group for candidates, the user for a performer. */
function formalReceivers(body: string, bare: 'user' | 'group') {
  const users: string[] = [];
  const groups: string[] = [];
  for (const part of body
    .split(/,(?![^{]*})/)
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(user|group)\(\s*(.+?)\s*\)$/.exec(part);
    const [kind, name] = m ? [m[1], m[2]] : [bare, part];
    (kind === 'user' ? users : groups).push(name);
  }
  return { users, groups };
}

/**
 * Moves who may receive each user task, whichever dialect the file writes it in — camunda:, flowable: or
 * activiti: attributes (any prefix bound to those namespaces), or the standard potentialOwner /
 * humanPerformer (a formal expression `user(…)`, `group(…)`, or a resource's name) — onto the attributes
 * the engine reads (camunda's), so every task lands in somebody's list. Returns the user tasks.
 */
function normalizeAssignment(definitions: ModdleElement, tasks: ModdleElement[]) {
  const prefixes = new Map<string, string>();
  for (const [k, v] of Object.entries(definitions.$attrs ?? {}))
    if (k.startsWith('xmlns:') && ASSIGNMENT_NAMESPACES.has(v)) prefixes.set(k.slice(6), v);
  const join = (...lists: (string | undefined)[]) =>
    [
      ...new Set(
        lists
          .flatMap((l) => (l ? l.split(',') : []))
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ].join(',') || undefined;
  for (const el of tasks) {
    for (const [key, value] of Object.entries(el.$attrs ?? {})) {
      const [prefix, local] = key.split(':');
      if (!local || !prefixes.has(prefix) || !(ASSIGNMENT_ATTRS as readonly string[]).includes(local))
        continue;
      const attr = local as (typeof ASSIGNMENT_ATTRS)[number];
      el[attr] = attr === 'assignee' ? (el.assignee ?? value) : join(el[attr], value);
      delete el.$attrs?.[key];
    }
    const kept: ModdleElement[] = [];
    for (const r of el.resources ?? []) {
      const performer = r.$type === 'bpmn:HumanPerformer' || r.$type === 'bpmn:Performer';
      if (!performer && r.$type !== 'bpmn:PotentialOwner') {
        kept.push(r);
        continue;
      }
      const body = r.resourceAssignmentExpression?.expression?.body ?? r.resourceRef?.name ?? '';
      const { users, groups } = formalReceivers(body, performer ? 'user' : 'group');
      if (performer && users.length && !el.assignee) el.assignee = users.shift();
      el.candidateUsers = join(el.candidateUsers, users.join(','));
      el.candidateGroups = join(el.candidateGroups, groups.join(','));
    }
    // the engine would evaluate what it cannot read; what it says is now on the task itself
    el.resources = kept;
    // a countersign's list and element variable, as Flowable or Activiti write them
    const loop = el.loopCharacteristics as
      | (ModdleElement & { collection?: string; elementVariable?: string })
      | undefined;
    for (const [key, value] of Object.entries(loop?.$attrs ?? {})) {
      const [prefix, local] = key.split(':');
      if (!local || !prefixes.has(prefix) || (local !== 'collection' && local !== 'elementVariable'))
        continue;
      if (loop && !loop[local]) loop[local] = value;
      delete loop?.$attrs?.[key];
    }
  }
}

/** `#{…}` (Flowable's deferred form) is the same expression as `${…}` here. */
const deferred = (text: string | undefined) => text?.replace(/(^|,)(\s*)#\{/g, '$1$2${');

/** Writes every condition and assignment in the `${…}` form the engine evaluates. */
function normalizeExpressions(elements: ModdleElement[]) {
  for (const el of elements) {
    if (el.conditionExpression?.body) el.conditionExpression.body = deferred(el.conditionExpression.body);
    for (const attr of ASSIGNMENT_ATTRS) if (el[attr]) el[attr] = deferred(el[attr]);
  }
}

/** Problems of a diagram, gathered: a deployment names every one at once. */
class Problems {
  readonly list: { en: string; zh: string }[] = [];
  add(en: string, zh: string) {
    if (!this.list.some((p) => p.en === en)) this.list.push({ en, zh });
  }
  /** throws one refusal naming them all (in the order found) */
  check() {
    if (this.list.length)
      throw new DiagramRefusal(this.list.map((p) => p.en).join('; '), this.list.map((p) => p.zh).join(';'));
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
type Definitions = ModdleElement & { rootElements?: ModdleElement[] };
interface Moddle {
  fromXML(x: string): Promise<{ rootElement: object; warnings: { message: string }[] }>;
  toXML(el: object): Promise<{ xml: string }>;
}

async function parseBpmn(xml: string) {
  const { default: BpmnModdle } = (await import('bpmn-moddle')) as unknown as {
    default: new (p: object) => Moddle;
  };
  const moddle = new BpmnModdle(moddleOptions);
  const parsed = await moddle.fromXML(xml);
  return { moddle, definitions: parsed.rootElement as Definitions, warnings: parsed.warnings };
}

/** Every element of a process, at any depth of sub-processes. */
function elementsOf(elements: ModdleElement[] = []): ModdleElement[] {
  return elements.flatMap((el) => [el, ...elementsOf(el.flowElements)]);
}

const userTasksOf = (definitions: Definitions) =>
  (definitions.rootElements ?? [])
    .filter((e) => e.$type === 'bpmn:Process')
    .flatMap((p) => elementsOf(p.flowElements))
    .filter((el) => el.$type === 'bpmn:UserTask');

/** Root elements that only describe (data types, resources, reusable task templates): nothing runs them. */
const DESCRIPTIVE_ROOTS = new Set([
  'bpmn:ItemDefinition',
  'bpmn:Resource',
  'bpmn:GlobalUserTask',
  'bpmn:GlobalManualTask',
]);

/**
 * Removes what only describes a process — item definitions and what points at them, resources, global
 * tasks — which bpmn-engine would otherwise try to run as activities (and fail with at start).
 */
function dropDescriptive(definitions: Definitions) {
  definitions.rootElements = (definitions.rootElements ?? []).filter((e) => !DESCRIPTIVE_ROOTS.has(e.$type));
  const seen = new Set<object>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    const el = node as Record<string, unknown>;
    if (typeof el.$type !== 'string') return;
    delete el.itemSubjectRef;
    // references (to other elements) are not descended into: only what this element holds
    for (const [key, value] of Object.entries(el))
      if (!key.startsWith('$') && !key.endsWith('Ref') && !key.endsWith('Refs')) walk(value);
  };
  walk(definitions.rootElements);
}

const executable = new Map<string, Promise<string>>();
/**
 * The diagram as the engine runs it: who receives each user task moved onto the attributes it reads
 * (normalizeAssignment). Remembered per diagram text (a definition never changes; a few are in use).
 */
export function executableXml(xml: string): Promise<string> {
  let hit = executable.get(xml);
  if (!hit) {
    hit = (async () => {
      const { moddle, definitions } = await parseBpmn(xml);
      normalizeAssignment(definitions, userTasksOf(definitions));
      normalizeExpressions(
        (definitions.rootElements ?? [])
          .filter((e) => e.$type === 'bpmn:Process')
          .flatMap((p) => elementsOf(p.flowElements)),
      );
      dropDescriptive(definitions);
      return (await moddle.toXML(definitions)).xml;
    })();
    if (executable.size >= 100) executable.delete(executable.keys().next().value as string);
    executable.set(xml, hit);
    hit.catch(() => executable.delete(xml));
  }
  return hit;
}

export async function inspectDiagram(xml: string): Promise<ProcessInfo> {
  if (!xml?.includes('definitions'))
    throw new DiagramRefusal('not a BPMN 2.0 document', '不是 BPMN 2.0 文档');
  let definitions: Definitions;
  try {
    const parsed = await parseBpmn(xml);
    definitions = parsed.definitions;
    const fatal = parsed.warnings.find((w) => /unparsable|unresolved reference/i.test(w.message));
    if (fatal) throw new Error(fatal.message);
  } catch (e) {
    const reason = (e as Error).message.split('\n')[0];
    throw new DiagramRefusal(`invalid BPMN: ${reason}`, `BPMN 文件有误: ${reason}`);
  }
  const problems = new Problems();
  const roots = definitions.rootElements ?? [];
  // message flows would start the other pools' processes inside the engine (or reach a pool with none)
  for (const c of roots.filter((e) => e.$type === 'bpmn:Collaboration'))
    for (const flow of c.messageFlows ?? [])
      problems.add(
        `${nameOf(flow)} between pools cannot be executed here`,
        `流程引擎不能执行池之间的 ${nameOf(flow)}`,
      );
  const processes = roots.filter((e) => e.$type === 'bpmn:Process');
  const runnable = processes.filter((p) => p.isExecutable);
  if (!runnable.length)
    problems.add('no executable process (isExecutable="true")', '没有可执行的流程 (isExecutable="true")');
  if (runnable.length > 1) problems.add('more than one executable process', '可执行的流程多于一个');
  if (runnable.length !== 1) problems.check();
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
  collect(runnable[0].flowElements);
  const tasks = all.map((a) => a.el).filter((el) => el.$type === 'bpmn:UserTask');
  normalizeAssignment(definitions, tasks);
  normalizeExpressions(all.map((a) => a.el));
  for (const el of tasks)
    if (!el.assignee && !el.candidateUsers && !el.candidateGroups)
      problems.add(
        `${nameOf(el)} names nobody to receive it (assignee, candidate users or groups)`,
        `${nameOf(el)} 没有指定处理人(办理人、候选用户或候选组),无人能收到它`,
      );
  // what the engine has no behaviour for is named first; then what it would run wrongly
  for (const { el } of all)
    if (!RUNNABLE.has(el.$type))
      problems.add(`${nameOf(el)} cannot be executed here`, `流程引擎不能执行 ${nameOf(el)}`);
  for (const { el, arrivals } of all) {
    if (!RUNNABLE.has(el.$type)) continue; // named above; once is enough
    if (el.eventDefinitions?.length) {
      const kinds = el.eventDefinitions.map(typeOf);
      const allowed = el.$type === 'bpmn:EndEvent' ? ['TerminateEventDefinition'] : [];
      if (el.$type !== 'bpmn:IntermediateThrowEvent' && !kinds.every((k) => allowed.includes(k)))
        problems.add(
          `${nameOf(el)} (${kinds.join(', ')}) cannot be executed here`,
          `流程引擎不能执行 ${nameOf(el)} (${kinds.join(', ')})`,
        );
    }
    const loop = el.loopCharacteristics as
      | (ModdleElement & { collection?: string; loopCardinality?: { body?: string } })
      | undefined;
    const countersign =
      loop?.$type === 'bpmn:MultiInstanceLoopCharacteristics' &&
      el.$type === 'bpmn:UserTask' &&
      (!!loop.collection || !!loop.loopCardinality?.body);
    if (loop && !countersign)
      problems.add(
        `${nameOf(el)} with ${typeOf(loop)} cannot be executed here`,
        `流程引擎不能执行带 ${typeOf(loop)} 的 ${nameOf(el)}(多实例或循环)`,
      );
    // bpmn-engine passes every arrival through an inclusive join: the steps after it would run twice
    if (el.$type === 'bpmn:InclusiveGateway' && arrivals > 1)
      problems.add(
        `${nameOf(el)} joining ${arrivals} flows cannot be executed here (an inclusive gateway may only split)`,
        `流程引擎不能执行汇合 ${arrivals} 条分支的 ${nameOf(el)}(包容网关只能用于分支)`,
      );
    const condition = el.conditionExpression;
    if (condition && (condition.language || !EXPRESSION.test(condition.body ?? '')))
      problems.add(
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
            problems.add(
              `expression "${part.trim()}" on ${nameOf(el)}: ${reason}`,
              `${nameOf(el)} 的表达式 "${part.trim()}" 有误: ${reason}`,
            );
          }
        }
      }
    }
  }
  problems.check();
  return { processKey: runnable[0].id, name: runnable[0].name ?? runnable[0].id };
}

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

export interface RunResult {
  state: string;
  ended: boolean;
  /** user tasks that began waiting in this run */
  waiting: WaitingTask[];
  /** every execution still waiting after this run (a task not among them has been withdrawn by the process) */
  stillWaiting: string[];
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
    const content = (api.content ?? {}) as Record<string, unknown>;
    const loop = b.loopCharacteristics as { behaviour?: { elementVariable?: string } } | undefined;
    const element = loop?.behaviour?.elementVariable ?? 'item';
    waiting.set(api.executionId, {
      executionId: api.executionId,
      activityId: api.id,
      name: api.name ?? api.id,
      ...(content.isMultiInstance
        ? { variables: { [element]: content[element], loopCounter: content.index } }
        : {}),
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

interface Postponed {
  executionId: string;
  id: string;
  signal(m: object): void;
  getPostponed?: () => Postponed[];
  /** a multi-instance task's iterations wait in its own execution */
  owner?: { execution?: { getPostponed?: () => Postponed[] } };
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

/**
 * `variables` are the instance's variables after this run (the engine keeps them in its state too). An
 * instance in which nothing waits any more (no task, no token held anywhere) has finished, whatever state
 * the engine reports: it must never stay "running" with nothing anyone could do.
 */
async function finish(
  engine: Engine,
  execution: { getPostponed(): unknown[] },
  rec: ReturnType<typeof recorder>,
  variables: Record<string, unknown>,
): Promise<RunResult> {
  await settle(engine as unknown as { state: string }, rec);
  const state = await engine.getState();
  const postponed = allPostponed(execution.getPostponed() as Postponed[]);
  const nothingWaits = !rec.waiting.size && postponed.length === 0;
  return {
    state: JSON.stringify(state),
    ended: rec.done() || engine.state === 'idle' || nothingWaits,
    waiting: [...rec.waiting.values()],
    stillWaiting: postponed.map((p) => p.executionId),
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
    source: await executableXml(xml),
    moddleOptions,
    expressions: engineExpressions,
    scripts: noScripts,
  } as never);
  engine.once('end', rec.end);
  const execution = await engine.execute({ listener: rec.listener, variables } as never);
  return finish(engine, execution, rec, variables);
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
  const postponed = allPostponed(execution.getPostponed() as Postponed[]);
  const target = postponed.find((a) => a.executionId === executionId);
  if (!target) throw new Error('the task is no longer waiting in the process');
  rec.waiting.clear();
  rec.history.length = 0;
  target.signal(output);
  return finish(engine, execution, rec, { ...variables, ...output });
}
