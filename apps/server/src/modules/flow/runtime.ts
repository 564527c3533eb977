import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { RUNNABLE_BPMN_ELEMENTS, TimerError, timerDue } from '@smart/contracts';
import type { Engine } from 'bpmn-engine';
import { checkExpression, engineExpressions, resolve } from './expressions';

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
/** The service-type tasks: each waits until the service has run its action (never a script). */
const ACTION_TASKS = new Set([
  'bpmn:ServiceTask',
  'bpmn:SendTask',
  'bpmn:BusinessRuleTask',
  'bpmn:ScriptTask',
]);

export interface ProcessInfo {
  processKey: string;
  name: string;
  /** the process's timer start events */
  startTimers: StartTimer[];
  /** the process's message and signal start events: a message or signal of that name starts an instance */
  startEvents: StartEventTrigger[];
}

/** A message or signal start event of a process (the name is the message's or signal's, as catches use). */
export interface StartEventTrigger {
  activityId: string;
  kind: 'message' | 'signal';
  name: string;
}

/** A timer start event: the definition starts an instance when it is due (a cycle, again and again). */
export interface StartTimer {
  activityId: string;
  kind: 'timeDuration' | 'timeDate' | 'timeCycle';
  value: string;
}

/** Which event definitions run on which element (bpmn-engine's behaviour, with the service's waits). */
const EVENT_KINDS: Record<string, string[]> = {
  'bpmn:EndEvent': [
    'TerminateEventDefinition',
    'ErrorEventDefinition',
    'EscalationEventDefinition',
    'SignalEventDefinition',
  ],
  'bpmn:IntermediateCatchEvent': ['TimerEventDefinition', 'MessageEventDefinition', 'SignalEventDefinition'],
  'bpmn:BoundaryEvent': [
    'TimerEventDefinition',
    'MessageEventDefinition',
    'SignalEventDefinition',
    'ErrorEventDefinition',
    'EscalationEventDefinition',
  ],
};
/** a process starts by the API, by its timer, or by a message or signal its start event catches */
const TOP_START_KINDS = ['TimerEventDefinition', 'MessageEventDefinition', 'SignalEventDefinition'];
/** an event sub-process starts on what the process meets */
const EVENT_SUB_START_KINDS = [...EVENT_KINDS['bpmn:BoundaryEvent']];

/**
 * The actions a service-type task may name (actions.ts runs them): the platform's three, and those a
 * business module registers for its own processes (actions.ts registerFlowAction).
 */
export const ACTION_NAMES: string[] = ['notice', 'variables', 'http'];

/** A timer definition's kind and time expression. */
function timerOf(def: ModdleElement): Omit<StartTimer, 'activityId'> | undefined {
  const d = def as unknown as Record<string, { body?: string } | undefined>;
  for (const kind of ['timeCycle', 'timeDate', 'timeDuration'] as const) {
    const value = d[kind]?.body?.trim();
    if (value) return { kind, value };
  }
  return undefined;
}

/**
 * When a timer is due, from `from`, and how many firings a cycle has left after this one (-1: for ever).
 * Throws when the text is not ISO 8601.
 */
export function dueOf(kind: StartTimer['kind'], value: string, from: Date): { dueAt: Date; repeat: number } {
  return timerDue(kind, value, from);
}

/** The start-timer rows a deployment writes for its definition's timer start events. */
export function startTimersOf(timers: StartTimer[], from = new Date()) {
  return timers.map((t) => ({
    activityId: t.activityId,
    spec: `${t.kind}:${t.value}`,
    ...dueOf(t.kind, t.value, from),
  }));
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
  }
}

/**
 * A multi-instance element's list and element variable (a countersign's, a sub-process's or a call
 * activity's), as Flowable or Activiti write them, moved onto what the engine reads (camunda's).
 */
function normalizeLoops(definitions: ModdleElement, elements: ModdleElement[]) {
  const prefixes = new Set<string>();
  for (const [k, v] of Object.entries(definitions.$attrs ?? {}))
    if (k.startsWith('xmlns:') && ASSIGNMENT_NAMESPACES.has(v)) prefixes.add(k.slice(6));
  for (const el of elements) {
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
  create(type: string, attrs: object): object;
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
      const elements = (definitions.rootElements ?? [])
        .filter((e) => e.$type === 'bpmn:Process')
        .flatMap((p) => elementsOf(p.flowElements));
      normalizeLoops(definitions, elements);
      normalizeExpressions(elements);
      dropDescriptive(definitions);
      keepActions(moddle, definitions);
      for (const p of (definitions.rootElements ?? []).filter((e) => e.$type === 'bpmn:Process'))
        scopeEventSubProcesses(moddle, p);
      return (await moddle.toXML(definitions)).xml;
    })();
    if (executable.size >= 100) executable.delete(executable.keys().next().value as string);
    executable.set(xml, hit);
    hit.catch(() => executable.delete(xml));
  }
  return hit;
}

/** What scopeEventSubProcesses adds to a diagram is named with this prefix (and kept out of the timeline). */
const SCOPE_PREFIX = '__es_';
/** The scope that holds a process's own path when it has event sub-processes. */
const PROCESS_SCOPE = `${SCOPE_PREFIX}process_`;
/** the boundary event that starts an event sub-process */
const EVENT_SUB_START = `${SCOPE_PREFIX}start_`;
const isEventSubProcess = (el: ModdleElement) =>
  el.$type === 'bpmn:SubProcess' && !!(el as { triggeredByEvent?: boolean }).triggeredByEvent;
/** whether an element is one of the process's own (not inside a sub-process) */
const isTopLevel = (el: ModdleElement, process: ModdleElement) => (process.flowElements ?? []).includes(el);

/**
 * Event sub-processes, run by what bpmn-engine runs well: boundary events. bpmn-engine starts an event
 * sub-process only for some events, and an interrupting one leaves the path it interrupts running. So the
 * container's own elements (everything but its event sub-processes) move into a scope of their own (an
 * embedded sub-process), and each event sub-process becomes an ordinary sub-process reached from a boundary
 * event on that scope, which catches what its start event caught: an interrupting one (isInterrupting,
 * true by default) cancels the scope — its user tasks, timers and subscriptions, and the non-interrupting
 * event sub-processes running beside it — and only the event sub-process goes on, to the container's end; a
 * non-interrupting one runs beside it. The event
 * sub-process's start event stays, without its trigger. Containers at any depth (a sub-process, an event
 * sub-process itself) are treated the same, innermost first, so an event is caught by the nearest scope.
 */
function scopeEventSubProcesses(moddle: Moddle, container: ModdleElement & { artifacts?: ModdleElement[] }) {
  for (const el of container.flowElements ?? []) if (el.flowElements) scopeEventSubProcesses(moddle, el);
  const subs = (container.flowElements ?? []).filter(isEventSubProcess);
  if (!subs.length) return;
  const scope = moddle.create('bpmn:SubProcess', {
    id: `${container.$type === 'bpmn:Process' ? PROCESS_SCOPE : `${SCOPE_PREFIX}scope_`}${container.id}`,
    flowElements: (container.flowElements ?? []).filter((el) => !isEventSubProcess(el)),
    artifacts: container.artifacts ?? [],
  }) as ModdleElement;
  /** the event sub-process reached from a boundary event on `on`; answers the three elements */
  const reach = (sub: ModdleElement, start: ModdleElement, on: ModdleElement, interrupting: boolean) => {
    const boundary = moddle.create('bpmn:BoundaryEvent', {
      id: `${EVENT_SUB_START}${start.id}`,
      name: start.name,
      attachedToRef: on,
      cancelActivity: interrupting,
      eventDefinitions: start.eventDefinitions,
    }) as ModdleElement;
    start.eventDefinitions = [];
    (sub as { triggeredByEvent?: boolean }).triggeredByEvent = false;
    const link = moddle.create('bpmn:SequenceFlow', {
      id: `${SCOPE_PREFIX}flow_${sub.id}`,
      sourceRef: boundary,
      targetRef: sub,
    }) as ModdleElement;
    return [boundary, link, sub];
  };
  const started = subs.flatMap((sub) => {
    const start = (sub.flowElements ?? []).find((el) => el.$type === 'bpmn:StartEvent');
    // (one without a start event is refused at deployment)
    return start
      ? [{ sub, start, interrupting: (start as { isInterrupting?: boolean }).isInterrupting !== false }]
      : [];
  });
  // the non-interrupting ones run beside the path; when interrupting ones are there too, the path and the
  // non-interrupting ones running beside it are held by an outer scope, which an interrupting one cancels
  // whole (BPMN: it cancels every other token of its container)
  const beside = started.filter((e) => !e.interrupting).flatMap((e) => reach(e.sub, e.start, scope, false));
  const interrupting = started.filter((e) => e.interrupting);
  const outer =
    beside.length && interrupting.length
      ? (moddle.create('bpmn:SubProcess', {
          id: `${SCOPE_PREFIX}outer_${container.id}`,
          flowElements: [scope, ...beside],
        }) as ModdleElement)
      : undefined;
  container.flowElements = [
    ...(outer ? [outer] : [scope, ...beside]),
    ...interrupting.flatMap((e) => reach(e.sub, e.start, outer ?? scope, true)),
  ];
  container.artifacts = [];
}

/** Writes each service-type task's action as a field the engine keeps (its attributes it does not). */
function keepActions(moddle: Moddle, definitions: Definitions) {
  const tasks = (definitions.rootElements ?? [])
    .filter((e) => e.$type === 'bpmn:Process')
    .flatMap((p) => elementsOf(p.flowElements))
    .filter((el) => ACTION_TASKS.has(el.$type));
  for (const el of tasks) {
    const { action } = actionOf(el as never);
    if (!action) continue;
    const holder = el as { extensionElements?: { values?: object[] } };
    holder.extensionElements ??= moddle.create('bpmn:ExtensionElements', { values: [] }) as {
      values?: object[];
    };
    holder.extensionElements.values ??= [];
    holder.extensionElements.values.push(
      moddle.create('camunda:Field', { name: ACTION_FIELD, stringValue: action }),
    );
  }
}

/**
 * An event sub-process runs (scopeEventSubProcesses) when it is what BPMN says it is: no sequence flow in or
 * out, one start event, which names one trigger — an error, escalation, message, signal or timer — and
 * interrupts when it is an error (the kinds themselves are checked with the other events).
 */
function checkEventSubProcess(
  sub: ModdleElement,
  all: { el: ModdleElement; arrivals: number }[],
  problems: Problems,
) {
  const linked = all.some(
    ({ el }) =>
      el.$type === 'bpmn:SequenceFlow' &&
      (el.targetRef?.id === sub.id || (el as { sourceRef?: ModdleElement }).sourceRef?.id === sub.id),
  );
  if (linked)
    problems.add(
      `${nameOf(sub)} is an event sub-process: no sequence flow may enter or leave it`,
      `${nameOf(sub)} 是事件子流程: 不能有顺序流进入或离开它`,
    );
  const starts = (sub.flowElements ?? []).filter((el) => el.$type === 'bpmn:StartEvent');
  const start = starts[0];
  const triggers = start?.eventDefinitions ?? [];
  if (starts.length !== 1 || triggers.length !== 1) {
    problems.add(
      `${nameOf(sub)} is an event sub-process: it needs exactly one start event naming one trigger (error, escalation, message, signal or timer)`,
      `${nameOf(sub)} 是事件子流程: 需要恰好一个开始事件,并指定一种触发方式(错误、升级、消息、信号或定时)`,
    );
    return;
  }
  const trigger = triggers[0] as ModdleElement & { messageRef?: unknown; signalRef?: unknown };
  if (
    trigger.$type === 'bpmn:ErrorEventDefinition' &&
    (start as { isInterrupting?: boolean }).isInterrupting === false
  )
    problems.add(
      `${nameOf(start)} of ${nameOf(sub)} catches an error, which always interrupts (isInterrupting="false" is not allowed)`,
      `${nameOf(sub)} 的 ${nameOf(start)} 捕获错误,错误总是中断流程(不能设置 isInterrupting="false")`,
    );
  if (
    (trigger.$type === 'bpmn:MessageEventDefinition' && !trigger.messageRef) ||
    (trigger.$type === 'bpmn:SignalEventDefinition' && !trigger.signalRef)
  ) {
    const what = trigger.$type === 'bpmn:MessageEventDefinition' ? 'message' : 'signal';
    problems.add(
      `${nameOf(start)} of ${nameOf(sub)} names no ${what} to wait for (${what}Ref)`,
      `${nameOf(sub)} 的 ${nameOf(start)} 没有指定要等待的${what === 'message' ? '消息' : '信号'} (${what}Ref)`,
    );
  }
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
  normalizeLoops(
    definitions,
    all.map((a) => a.el),
  );
  normalizeExpressions(all.map((a) => a.el));
  for (const el of tasks)
    if (!el.assignee && !el.candidateUsers && !el.candidateGroups)
      problems.add(
        `${nameOf(el)} names nobody to receive it (assignee, candidate users or groups)`,
        `${nameOf(el)} 没有指定处理人(办理人、候选用户或候选组),无人能收到它`,
      );
  // the start events of event sub-processes (triggeredByEvent) catch what the process meets
  const eventSubStarts = new Set(
    all
      .map((a) => a.el)
      .filter(isEventSubProcess)
      .flatMap((sub) => (sub.flowElements ?? []).filter((e) => e.$type === 'bpmn:StartEvent')),
  );
  const startTimers: StartTimer[] = [];
  const startEvents: StartEventTrigger[] = [];
  // what the engine has no behaviour for is named first; then what it would run wrongly
  for (const { el } of all)
    if (!RUNNABLE.has(el.$type))
      problems.add(`${nameOf(el)} cannot be executed here`, `流程引擎不能执行 ${nameOf(el)}`);
  for (const { el } of all) {
    if (!RUNNABLE.has(el.$type)) continue; // named above; once is enough
    if (el.eventDefinitions?.length) {
      const kinds = el.eventDefinitions.map(typeOf);
      const inEventSub = eventSubStarts.has(el);
      const allowed =
        el.$type === 'bpmn:StartEvent'
          ? inEventSub
            ? EVENT_SUB_START_KINDS
            : TOP_START_KINDS
          : (EVENT_KINDS[el.$type] ?? []);
      if (el.$type !== 'bpmn:IntermediateThrowEvent' && !kinds.every((k) => allowed.includes(k)))
        problems.add(
          `${nameOf(el)} (${kinds.join(', ')}) cannot be executed here`,
          `流程引擎不能执行 ${nameOf(el)} (${kinds.join(', ')})`,
        );
      for (const def of el.eventDefinitions) {
        if (def.$type !== 'bpmn:TimerEventDefinition') continue;
        const timer = timerOf(def);
        if (!timer) {
          problems.add(
            `${nameOf(el)} has a timer without a time (timeDuration, timeDate or timeCycle)`,
            `${nameOf(el)} 的定时器没有设置时间(timeDuration、timeDate 或 timeCycle)`,
          );
          continue;
        }
        if (timer.value.includes('${')) continue;
        try {
          dueOf(timer.kind, timer.value, new Date());
        } catch (e) {
          if (e instanceof TimerError && e.kind === 'zeroInterval')
            problems.add(
              `${nameOf(el)}: the cycle "${timer.value}" repeats with an interval of no length (it must be longer than 0)`,
              `${nameOf(el)} 的周期 "${timer.value}" 间隔为 0(周期的间隔必须大于 0)`,
            );
          else
            problems.add(
              `${nameOf(el)}: "${timer.value}" is not an ISO 8601 ${timer.kind === 'timeDate' ? 'date' : timer.kind === 'timeCycle' ? 'cycle' : 'duration'}`,
              `${nameOf(el)} 的时间 "${timer.value}" 不是 ISO 8601 ${timer.kind === 'timeDate' ? '日期' : timer.kind === 'timeCycle' ? '周期' : '时长'}`,
            );
        }
        if (el.$type === 'bpmn:StartEvent' && !inEventSub) startTimers.push({ activityId: el.id, ...timer });
      }
    }
    if (el.$type === 'bpmn:StartEvent' && !eventSubStarts.has(el) && isTopLevel(el, runnable[0]))
      for (const def of el.eventDefinitions ?? []) {
        const kind =
          def.$type === 'bpmn:MessageEventDefinition'
            ? 'message'
            : def.$type === 'bpmn:SignalEventDefinition'
              ? 'signal'
              : undefined;
        if (!kind) continue;
        const ref = (def as { messageRef?: Ref; signalRef?: Ref })[`${kind}Ref`];
        if (!ref?.id)
          problems.add(
            `${nameOf(el)} names no ${kind} to start on (${kind}Ref)`,
            `${nameOf(el)} 没有指定发起流程的${kind === 'message' ? '消息' : '信号'} (${kind}Ref)`,
          );
        else startEvents.push({ activityId: el.id, kind, name: ref.name ?? ref.id });
      }
    if (isEventSubProcess(el)) checkEventSubProcess(el, all, problems);
    if (el.$type === 'bpmn:CallActivity' && !(el as { calledElement?: string }).calledElement)
      problems.add(
        `${nameOf(el)} names no process to call (calledElement)`,
        `${nameOf(el)} 没有指定要调用的流程 (calledElement)`,
      );
    if (el.$type === 'bpmn:ReceiveTask' && !(el as { messageRef?: unknown }).messageRef)
      problems.add(
        `${nameOf(el)} names no message to wait for (messageRef)`,
        `${nameOf(el)} 没有指定要等待的消息 (messageRef)`,
      );
    if (ACTION_TASKS.has(el.$type)) {
      const { action } = actionOf(el as never);
      const script = (el as { script?: string }).script;
      if (el.$type === 'bpmn:ScriptTask' && script?.trim())
        problems.add(
          `${nameOf(el)} holds a script: scripts never run here (name an action instead: ${ACTION_NAMES.join(', ')})`,
          `${nameOf(el)} 含有脚本: 这里从不执行脚本(请改为指定动作: ${ACTION_NAMES.join('、')})`,
        );
      else if (!action || !ACTION_NAMES.includes(action))
        problems.add(
          `${nameOf(el)} names no action this system offers (flowable:type or camunda:type: ${ACTION_NAMES.join(', ')})`,
          `${nameOf(el)} 没有指定本系统提供的动作(flowable:type 或 camunda:type: ${ACTION_NAMES.join('、')})`,
        );
    }
    const loop = el.loopCharacteristics as
      | (ModdleElement & {
          collection?: string;
          loopCardinality?: { body?: string };
          completionCondition?: { body?: string };
        })
      | undefined;
    // multi-instance (over a list or a count): user tasks (countersigns), call activities, sub-processes
    const multi =
      loop?.$type === 'bpmn:MultiInstanceLoopCharacteristics' &&
      (el.$type === 'bpmn:UserTask' ||
        el.$type === 'bpmn:CallActivity' ||
        (el.$type === 'bpmn:SubProcess' && !isEventSubProcess(el))) &&
      (!!loop.collection || !!loop.loopCardinality?.body);
    if (loop && !multi)
      problems.add(
        `${nameOf(el)} with ${typeOf(loop)} cannot be executed here`,
        `流程引擎不能执行带 ${typeOf(loop)} 的 ${nameOf(el)}(多实例或循环)`,
      );
    const done = loop?.completionCondition?.body?.trim();
    if (multi && done) {
      try {
        checkExpression(done);
      } catch (e) {
        problems.add(
          `the completion condition "${done}" of ${nameOf(el)}: ${(e as Error).message}`,
          `${nameOf(el)} 的完成条件 "${done}" 有误: ${(e as Error).message}`,
        );
      }
    }
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
  return {
    processKey: runnable[0].id,
    name: runnable[0].name ?? runnable[0].id,
    startTimers,
    startEvents,
  };
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

/** A timer the instance waits on; the database keeps it (flow_wait) and a poller fires it when due. */
export interface LiveTimer {
  executionId: string;
  activityId: string;
  expireAt: Date;
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

type Ref = { id?: string; name?: string };
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
function subscriptionsOf(postponed: Postponed[]): Subscription[] {
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

/** The extension properties of an element (camunda:/flowable: `in`, `out`, `field`, `property`), read loosely. */
interface Extension {
  $type: string;
  $attrs?: Record<string, string>;
  [k: string]: unknown;
}
const extensionsOf = (behaviour: { extensionElements?: { values?: Extension[] } } | undefined) =>
  behaviour?.extensionElements?.values ?? [];
const localName = (type: string) => (type.split(':').pop() ?? '').toLowerCase();
const attrOf = (e: Extension, name: string) => {
  const v = e[name] ?? e.$attrs?.[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * Copies variables across a call activity by its `in` (into the child) or `out` (back into the caller)
 * mappings, as Camunda and Flowable write them: `source`/`target`, `sourceExpression`, `variables="all"`.
 */
export function mapVariables(
  behaviour: { extensionElements?: { values?: Extension[] } } | undefined,
  direction: 'in' | 'out',
  from: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of extensionsOf(behaviour)) {
    if (localName(e.$type) !== direction) continue;
    if (attrOf(e, 'variables') === 'all') Object.assign(out, from);
    const target = attrOf(e, 'target');
    const source = attrOf(e, 'source');
    const expression = attrOf(e, 'sourceExpression');
    if (target && source !== undefined && source in from) out[target] = from[source];
    else if (target && expression) out[target] = resolve(expression, from);
  }
  return out;
}

/** Where executableXml writes a task's action, so that the engine's saved state keeps it. */
const ACTION_FIELD = '__action';

/** The action a service-type task names: `flowable:type` / `camunda:type` / `smart:action`, and its fields. */
export function actionOf(
  behaviour: (ModdleElement & { extensionElements?: { values?: Extension[] } }) | undefined,
) {
  const attrs = behaviour?.$attrs ?? {};
  // camunda:type is read by camunda's moddle into `type`; other prefixes stay attributes
  const typed = (behaviour as { type?: unknown } | undefined)?.type;
  let action: string | undefined = typeof typed === 'string' && !typed.includes(':') ? typed : undefined;
  for (const [k, v] of Object.entries(attrs)) if (/^[\w-]+:(type|action)$/.test(k)) action = v;
  const fields: Record<string, string> = {};
  for (const e of extensionsOf(behaviour)) {
    const kind = localName(e.$type);
    if (kind !== 'field' && kind !== 'property') continue;
    const name = attrOf(e, 'name');
    const children = (e.$children ?? []) as { $body?: string }[];
    const value =
      attrOf(e, 'stringValue') ??
      attrOf(e, 'expression') ??
      attrOf(e, 'value') ??
      (typeof e.string === 'string' ? e.string : undefined) ??
      children.map((c) => c.$body ?? '').join('');
    if (name === ACTION_FIELD) action = value;
    else if (name) fields[name] = value;
  }
  return { action, fields };
}

/** Where a multi-instance sub-process's iteration keeps its element variable and loopCounter (see loadElements). */
export const ITERATION = '__iteration';
/** What the engine keeps beside the instance's variables in an environment: the message that started a scope. */
const ENGINE_KEYS = new Set(['fields', 'content', 'properties', ITERATION, '__start']);
/** An environment's variables without what the engine and loadElements keep there. */
function processVariablesOf(variables: Record<string, unknown> | undefined) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(variables ?? {})) if (!ENGINE_KEYS.has(k)) out[k] = v;
  return out;
}

/**
 * The variables of the iterations an element runs in: its multi-instance sub-processes' (element variable and
 * loopCounter, innermost winning), then its own when it is an iteration itself (a countersign's task, a
 * multi-instance call activity's call).
 */
function iterationOf(api: {
  owner?: { behaviour?: ModdleElement };
  content?: object;
  environment: { variables: Record<string, unknown> };
}): Record<string, unknown> {
  const outer = (api.environment.variables?.[ITERATION] ?? {}) as Record<string, unknown>;
  const content = (api.content ?? {}) as Record<string, unknown>;
  if (!content.isMultiInstance) return { ...outer };
  const loop = api.owner?.behaviour?.loopCharacteristics as
    | { behaviour?: { elementVariable?: string; collection?: string } }
    | undefined;
  const element = loop?.behaviour?.elementVariable ?? 'item';
  return {
    ...outer,
    ...(loop?.behaviour?.collection ? { [element]: content[element] } : {}),
    loopCounter: content.index,
  };
}

function recorder() {
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

interface TimerRef {
  owner?: {
    id?: string;
    type?: string;
    executionId?: string;
    parent?: { id?: string; type?: string; path?: { id?: string; type?: string }[] };
  };
  expireAt: Date;
  callback: () => void;
}

/**
 * The engine's timers, kept instead of run: a timer that starts waiting is only noted (the service writes
 * it to flow_wait and a poller fires it), and a recovered instance whose timer is due fires it by itself
 * (bpmn-engine compares the saved expiry with the clock on resume). A timer start event passes at once —
 * its time is kept by the definition's start timer, which starts the instance when due.
 */
function durableTimers() {
  const live = new Set<TimerRef>();
  const make = (owner: TimerRef['owner'], callback: () => void, delay: number) => {
    const ref: TimerRef = { owner, callback, expireAt: new Date(Date.now() + Math.max(0, delay)) };
    // the timer of one of the process's own start events (the owner is the timer's event definition; its
    // parent the start event, whose container is the process, or the scope that holds the process's path
    // when it has event sub-processes)
    const container = owner?.parent?.path?.[0];
    const processStart =
      owner?.parent?.type === 'bpmn:StartEvent' &&
      (container?.type === 'bpmn:Process' || !!container?.id?.startsWith(PROCESS_SCOPE));
    if (processStart) setImmediate(callback);
    else live.add(ref);
    return ref;
  };
  const clear = (ref: TimerRef) => {
    live.delete(ref);
  };
  return {
    live,
    register: (owner: TimerRef['owner']) => ({
      setTimeout: (cb: () => void, delay: number) => make(owner, cb, delay),
      clearTimeout: clear,
    }),
    setTimeout: (cb: () => void, delay: number) => make(undefined, cb, delay),
    clearTimeout: clear,
    get executing() {
      return [...live];
    },
  };
}

let engineModule: Promise<typeof import('bpmn-engine')> | undefined;
let elementsModule: Promise<Record<string, unknown>> | undefined;
/** bpmn-engine, loaded with the first process that runs: most starts of the server run none */
const loadEngine = () => {
  engineModule ??= import('bpmn-engine');
  return engineModule;
};

/**
 * The element behaviours that differ from bpmn-engine's: an inclusive gateway joins as BPMN says (it waits
 * for every incoming path, taken or not — untaken paths arrive as discarded, so only the paths actually
 * taken are waited for); service-type tasks wait for the service to run their named action.
 */
/** bpmn-elements' boundary event behaviour, as far as RepeatingBoundaryBehaviour uses it */
interface BoundaryBehaviour {
  id: string;
  cancelActivity: boolean;
  activity: { eventDefinitions?: { type?: string }[] };
  _onRepeatMessage(routingKey: string, message: { content: object }): void;
}
type BoundaryBehaviourClass = {
  call(self: BoundaryBehaviour, activity: unknown): void;
  prototype: { _onCompleted(this: BoundaryBehaviour, routingKey: string, message: object): unknown };
};

async function loadElements() {
  elementsModule ??= (async () => {
    const elements = (await import('bpmn-elements')) as unknown as {
      Activity: new (behaviour: unknown, def: object, context: unknown) => unknown;
      SignalTask: unknown;
      TimerEventDefinition: TimerDefinitionClass;
    };
    const { InclusiveGatewayBehaviour } = (await import('bpmn-elements/gateways')) as unknown as {
      InclusiveGatewayBehaviour: unknown;
    };
    const { BoundaryEventBehaviour, StartEventBehaviour } = (await import(
      'bpmn-elements/events'
    )) as unknown as {
      BoundaryEventBehaviour: BoundaryBehaviourClass;
      StartEventBehaviour: StartBehaviourClass;
    };
    const { SubProcessBehaviour } = (await import('bpmn-elements/tasks')) as unknown as {
      SubProcessBehaviour: SubProcessBehaviourClass;
    };
    // each iteration of a multi-instance sub-process runs in an environment of its own: its element variable
    // and loopCounter are kept there (ITERATION), so the expressions and the task assignments inside it read
    // them; the engine saves that environment with the iteration, so a recovered one still has them
    const upsert = SubProcessBehaviour.prototype._upsertExecution;
    if (!(upsert as { iterations?: boolean }).iterations) {
      const withIteration = function (this: SubProcessBehaviourInstance, executeMessage: ExecuteMessage) {
        const content = executeMessage.content;
        const fresh = !this._getExecutionById(content.executionId);
        const execution = upsert.call(this, executeMessage);
        if (fresh && content.isMultiInstance) {
          const element = this.loopCharacteristics?.elementVariable;
          const variables = execution.environment.variables;
          variables[ITERATION] = {
            ...((variables[ITERATION] as object | undefined) ?? {}),
            ...(element ? { [element]: content[element] } : {}),
            loopCounter: content.index,
          };
        }
        return execution;
      };
      (withIteration as { iterations?: boolean }).iterations = true;
      SubProcessBehaviour.prototype._upsertExecution = withIteration;
    }
    // the process's own start events: one started by a message or a signal (the run's ENTRY variable names
    // it) passes at once and every other start event is discarded; one started otherwise (the API, a call)
    // discards its message and signal start events, which only a message or signal starts
    function EntryStartBehaviour(this: StartBehaviourInstance, activity: StartActivity) {
      StartEventBehaviour.call(this, activity);
    }
    EntryStartBehaviour.prototype = Object.create(StartEventBehaviour.prototype);
    EntryStartBehaviour.prototype.execute = function (
      this: StartBehaviourInstance,
      executeMessage: ExecuteMessage,
    ) {
      const { activity } = this;
      const container = activity.parent;
      const own = container?.type === 'bpmn:Process' || !!container?.id?.startsWith(PROCESS_SCOPE);
      if (own && executeMessage.content.isRootScope) {
        const entry = activity.environment.variables[ENTRY];
        const byEvent = (activity.eventDefinitions ?? []).some(
          (d) => d.type === 'bpmn:MessageEventDefinition' || d.type === 'bpmn:SignalEventDefinition',
        );
        const content = { ...executeMessage.content };
        if (entry ? entry !== activity.id : byEvent)
          return this.broker.publish('execution', 'execute.discard', content);
        if (byEvent) return this.broker.publish('execution', 'execute.completed', content);
      }
      return StartEventBehaviour.prototype.execute.call(this, executeMessage);
    };
    function StartEvent(def: object, context: unknown) {
      return new elements.Activity(EntryStartBehaviour, def, context);
    }
    // the gateway's behaviour (pass on) is kept; only the join differs: bpmn-elements joins what it is told
    // is a parallel gateway by waiting for every inbound flow, taken or discarded
    // (a function, not an arrow: the engine calls it with `new`)
    function InclusiveGateway(def: object, context: unknown) {
      return new elements.Activity(InclusiveGatewayBehaviour, { ...def, isParallelGateway: true }, context);
    }
    // a non-interrupting event sub-process (a boundary event on the scope of its container, see
    // scopeEventSubProcesses) started by a message or a signal starts again each time one arrives, as long as
    // its container runs: bpmn-elements re-arms a non-interrupting boundary event only for a timer's cycle
    function RepeatingBoundaryBehaviour(this: BoundaryBehaviour, activity: unknown) {
      BoundaryEventBehaviour.call(this, activity);
    }
    RepeatingBoundaryBehaviour.prototype = Object.create(BoundaryEventBehaviour.prototype);
    RepeatingBoundaryBehaviour.prototype._onCompleted = function (
      this: BoundaryBehaviour,
      routingKey: string,
      message: { content: { cancelActivity?: boolean } },
    ) {
      const kinds = (this.activity.eventDefinitions ?? []).map((d) => d.type);
      if (
        this.id.startsWith(EVENT_SUB_START) &&
        !this.cancelActivity &&
        message.content.cancelActivity !== true &&
        kinds.some((k) => k === 'bpmn:MessageEventDefinition' || k === 'bpmn:SignalEventDefinition')
      )
        this._onRepeatMessage(routingKey, { content: {} });
      return BoundaryEventBehaviour.prototype._onCompleted.call(this, routingKey, message);
    };
    function BoundaryEvent(def: object, context: unknown) {
      return new elements.Activity(RepeatingBoundaryBehaviour, def, context);
    }
    // a timer whose time an expression gives (`${cycle}`, from what an applicant typed) is checked as a
    // deployed one is: a cycle that never moves on is an error of the run, not a loop that holds the server
    const LibraryTimer = elements.TimerEventDefinition;
    function TimerEventDefinition(this: object, ...args: unknown[]) {
      LibraryTimer.apply(this, args);
    }
    TimerEventDefinition.prototype = Object.create(LibraryTimer.prototype);
    TimerEventDefinition.prototype.parse = function (this: object, kind: StartTimer['kind'], value: string) {
      if (kind !== 'timeDate') timerDue(kind, value, new Date());
      return LibraryTimer.prototype.parse.call(this, kind, value);
    };
    return {
      InclusiveGateway,
      BoundaryEvent,
      StartEvent,
      TimerEventDefinition,
      ServiceTask: elements.SignalTask,
      SendTask: elements.SignalTask,
      BusinessRuleTask: elements.SignalTask,
      ScriptTask: elements.SignalTask,
    };
  })();
  return elementsModule;
}

interface ExecuteMessage {
  content: Record<string, unknown> & {
    executionId: string;
    isRootScope?: boolean;
    isMultiInstance?: boolean;
  };
}
interface SubProcessBehaviourInstance {
  loopCharacteristics?: { elementVariable?: string };
  _getExecutionById(executionId: string): unknown;
}
type SubProcessBehaviourClass = {
  prototype: {
    _upsertExecution(
      this: SubProcessBehaviourInstance,
      executeMessage: ExecuteMessage,
    ): { environment: { variables: Record<string, unknown> } };
  };
};
interface StartActivity {
  id: string;
  parent?: { id?: string; type?: string };
  eventDefinitions?: { type?: string }[];
  environment: { variables: Record<string, unknown> };
}
interface StartBehaviourInstance {
  activity: StartActivity;
  broker: { publish(exchange: string, routingKey: string, content: object): unknown };
}
type StartBehaviourClass = {
  call(self: StartBehaviourInstance, activity: StartActivity): void;
  prototype: { execute(this: StartBehaviourInstance, executeMessage: ExecuteMessage): unknown };
};

interface TimerDefinitionClass {
  (this: object, ...args: unknown[]): void;
  prototype: { parse(this: object, kind: string, value: string): unknown };
}

/**
 * bpmn-engine's loggers print only under DEBUG=bpmn-engine:*, yet its default makes three `debug` loggers
 * for the engine and for every element of every run (each asking whether stderr is a terminal): without
 * DEBUG they are these that do nothing.
 */
const quiet = () => {};
const QUIET_LOGGER = () => ({ debug: quiet, error: quiet, warn: quiet });

/** An engine for one run; `processVariables` are the instance's variables (engineExpressions). */
async function newEngine(options: Record<string, unknown>, processVariables: Record<string, unknown>) {
  const { Engine } = await loadEngine();
  const timers = durableTimers();
  const engine = new Engine({
    moddleOptions,
    expressions: engineExpressions(processVariables),
    scripts: noScripts,
    elements: await loadElements(),
    timers,
    ...(process.env.DEBUG ? {} : { Logger: QUIET_LOGGER }),
    ...options,
  } as never);
  return { engine, timers };
}

/** bpmn-engine's reading of a diagram (moddle-context-serializer's context): what its definitions run from */
interface SourceContext {
  id: string;
  serialize(): string;
}

/**
 * The engine's reading of each executable diagram, made once: parsing the XML and mapping it for the engine
 * was a tenth of a start's work, and the mapped diagram went into every saved state (a third of its size,
 * parsed and written again at every step). Every engine of the diagram's instances starts from this one
 * context (bpmn-engine's `sourceContext`; the engine only reads it), and a saved state leaves it out: the
 * recovery takes it from here (a state saved with its `source` still recovers from that).
 */
const sources = new Map<string, Promise<SourceContext>>();
function sourceOf(xml: string): Promise<SourceContext> {
  let hit = sources.get(xml);
  if (!hit) {
    hit = (async () => {
      const { engine } = await newEngine({ source: await executableXml(xml) }, {});
      const [definition] = (await engine.getDefinitions()) as unknown as {
        environment: { options: { source: SourceContext } };
      }[];
      const context = definition.environment.options.source;
      // never changes: what getState writes of it (then leaves out, see stateToSave) is made once
      const text = context.serialize();
      context.serialize = () => text;
      return context;
    })();
    if (sources.size >= 100) sources.delete(sources.keys().next().value as string);
    sources.set(xml, hit);
    hit.catch(() => sources.delete(xml));
  }
  return hit;
}

/** The engine's state as saved: without the diagram each definition runs from (sourceOf gives it back). */
function stateToSave(state: { definitions?: { source?: unknown }[] }): string {
  for (const d of state.definitions ?? []) delete d.source;
  return JSON.stringify(state);
}

interface Postponed {
  executionId: string;
  id: string;
  type?: string;
  signal(m: object): void;
  getPostponed?: () => Postponed[];
  /** a multi-instance task's iterations wait in its own execution */
  owner?: { execution?: { getPostponed?: () => Postponed[] }; behaviour?: object };
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
async function settle(engine: { state: string }, rec: ReturnType<typeof recorder>, before: Set<string>) {
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
 * `variables` are the instance's variables after this run (the engine keeps them in its state too). An
 * instance in which nothing waits any more (no task, timer, call, subscription, no token held anywhere) has
 * finished, whatever state the engine reports: it must never stay "running" with nothing anyone could do.
 */
async function finish(
  engine: Engine,
  execution: { getPostponed(): unknown[] },
  rec: ReturnType<typeof recorder>,
  timers: ReturnType<typeof durableTimers>,
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
  const nothingWaits = !rec.waiting.size && postponed.length === 0;
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

const byHand = new Map<string, Promise<boolean>>();
/**
 * Whether a diagram's process may be started by hand (the start routes, a call activity): it has a start
 * event of its own that no message or signal starts. Remembered per diagram text.
 */
export function startsByHand(xml: string): Promise<boolean> {
  let hit = byHand.get(xml);
  if (!hit) {
    hit = (async () => {
      const { definitions } = await parseBpmn(xml);
      const process = (definitions.rootElements ?? []).find(
        (e) => e.$type === 'bpmn:Process' && e.isExecutable,
      );
      return (process?.flowElements ?? []).some(
        (el) =>
          el.$type === 'bpmn:StartEvent' &&
          !(el.eventDefinitions ?? []).some(
            (d) => d.$type === 'bpmn:MessageEventDefinition' || d.$type === 'bpmn:SignalEventDefinition',
          ),
      );
    })();
    if (byHand.size >= 100) byHand.delete(byHand.keys().next().value as string);
    byHand.set(xml, hit);
    hit.catch(() => byHand.delete(xml));
  }
  return hit;
}

/** The variable of a run naming the start event it begins at (a message's, a signal's or a timer's). */
const ENTRY = '__start';

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
 * The engines of the instances this server ran last, each with the state it saved: the next run of such
 * an instance continues that engine instead of recovering it from the saved state (parsing it, making every
 * element again and resuming them was most of a step's work). It is used only while the instance's state in
 * the database is exactly the one it saved — a run that rolled back, or another server's, leaves another
 * state there, and the engine is recovered from the database as before — and never for a run that fires
 * timers (a due timer fires as the instance is recovered). An engine is taken out while it runs.
 */
interface LiveEngine {
  name: string;
  xml: string;
  state: string;
  engine: Engine;
  execution: { getPostponed(): unknown[] };
  timers: ReturnType<typeof durableTimers>;
  /** the instance's variables the engine's expressions read (engineExpressions), replaced at each run */
  processVariables: Record<string, unknown>;
  /** the listener the engine was given: it passes the events on to the run's recorder */
  relay: { target: EventEmitter; emit: typeof relayEmit };
}
let liveMax = 200;
const live = new Map<string, LiveEngine>();
/** How many engines are kept (config FLOW_LIVE_ENGINES; 0: none, every run recovers from the saved state). */
export function keepLiveEngines(max: number) {
  liveMax = max;
  while (live.size > max) live.delete(live.keys().next().value as string);
}
function relayEmit(this: { target: EventEmitter }, event: string, ...args: unknown[]) {
  return this.target.emit(event, ...args);
}
function keep(entry: LiveEngine) {
  live.delete(entry.name);
  if (!liveMax) return;
  if (live.size >= liveMax) live.delete(live.keys().next().value as string);
  live.set(entry.name, entry);
}
/** The instance's engine when it is the one that saved `state` and no timer of it is due; taken out. */
function takeLive(name: string, xml: string, state: string): LiveEngine | undefined {
  const entry = live.get(name);
  if (!entry) return undefined;
  live.delete(name);
  if (entry.xml !== xml || entry.state !== state) return undefined;
  const now = Date.now();
  if ([...entry.timers.live].some((t) => t.expireAt.getTime() <= now)) return undefined;
  return entry;
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
  let timers: ReturnType<typeof durableTimers>;
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
    engine.recover(JSON.parse(savedState));
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
