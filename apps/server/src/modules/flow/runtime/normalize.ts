/**
 * The diagram as bpmn-engine runs it (executableXml): what Camunda, Flowable, Activiti or the standard write
 * — a task's receivers, a multi-instance list, `#{…}` expressions — moved onto what the engine reads (its
 * camunda moddle's attributes), what only describes a process dropped, service-type tasks' actions kept where
 * the saved state keeps them, and event sub-processes turned into what the engine runs well
 * (scopeEventSubProcesses). The deployment check (inspect.ts) reads a diagram through the same helpers.
 */
import { ACTION_FIELD, ACTION_TASKS, actionOf } from './extensions';
import {
  type Definitions,
  isEventSubProcess,
  type Moddle,
  type ModdleElement,
  parseBpmn,
  processElements,
  UNNAMED_DEFINITIONS,
} from './moddle';

/** The namespaces whose assignee / candidateUsers / candidateGroups attributes name a task's receivers. */
const ASSIGNMENT_NAMESPACES = new Set([
  'http://camunda.org/schema/1.0/bpmn',
  'http://flowable.org/bpmn',
  'http://activiti.org/bpmn',
]);
const ASSIGNMENT_ATTRS = ['assignee', 'candidateUsers', 'candidateGroups'] as const;

/**
 * The namespace a prefix stands for where an element is written: the nearest declaration of it, on the
 * element or the elements around it (a file may bind a prefix again inside, to another namespace), else
 * the document's.
 */
export function namespaceOf(el: ModdleElement, prefix: string, definitions: ModdleElement) {
  for (let at: ModdleElement | undefined = el; at; at = (at as { $parent?: ModdleElement }).$parent) {
    const bound = at.$attrs?.[`xmlns:${prefix}`];
    if (bound) return bound;
  }
  return definitions.$attrs?.[`xmlns:${prefix}`];
}

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
export function normalizeAssignment(definitions: ModdleElement, tasks: ModdleElement[]) {
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
      if (
        !local ||
        !ASSIGNMENT_NAMESPACES.has(namespaceOf(el, prefix, definitions) ?? '') ||
        !(ASSIGNMENT_ATTRS as readonly string[]).includes(local)
      )
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
export function normalizeLoops(definitions: ModdleElement, elements: ModdleElement[]) {
  for (const el of elements) {
    const loop = el.loopCharacteristics as
      | (ModdleElement & { collection?: string; elementVariable?: string })
      | undefined;
    for (const [key, value] of Object.entries(loop?.$attrs ?? {})) {
      const [prefix, local] = key.split(':');
      if (
        !local ||
        (local !== 'collection' && local !== 'elementVariable') ||
        !ASSIGNMENT_NAMESPACES.has(namespaceOf(loop as ModdleElement, prefix, definitions) ?? '')
      )
        continue;
      if (loop && !loop[local]) loop[local] = value;
      delete loop?.$attrs?.[key];
    }
    // Flowable's `#{assigneeList}` is the engine's `${assigneeList}` (else it reads no list at all)
    if (loop?.collection) loop.collection = deferred(loop.collection);
    const done = (loop as { completionCondition?: { body?: string } } | undefined)?.completionCondition;
    if (done?.body) done.body = deferred(done.body.trim());
  }
}

/** `#{…}` (Flowable's deferred form) is the same expression as `${…}` here. */
const deferred = (text: string | undefined) => text?.replace(/(^|,)(\s*)#\{/g, '$1$2${');

/** Writes every condition and assignment in the `${…}` form the engine evaluates. */
export function normalizeExpressions(elements: ModdleElement[]) {
  for (const el of elements) {
    if (el.conditionExpression?.body) el.conditionExpression.body = deferred(el.conditionExpression.body);
    for (const attr of ASSIGNMENT_ATTRS) if (el[attr]) el[attr] = deferred(el[attr]);
  }
}

/**
 * The root elements the engine reads: the processes, their pools, and what their events name. Every other
 * one only describes — item definitions, resources, global tasks, interfaces and their operations, end
 * points, partners, categories … — and bpmn-engine would try to run it as an activity (and fail at start).
 */
const ENGINE_ROOTS = new Set([
  'bpmn:Process',
  'bpmn:Collaboration',
  'bpmn:Message',
  'bpmn:Signal',
  'bpmn:Error',
  'bpmn:Escalation',
  'bpmn:DataStore',
]);

/** References to what dropDescriptive removes (a data type, an interface's operation). */
const DESCRIPTIVE_REFS = ['itemSubjectRef', 'operationRef'];

/**
 * Removes what only describes a process — root elements the engine does not read (ENGINE_ROOTS) and what
 * points at them, performers of what is not a user task (only a user task is received by anyone),
 * extension elements of vendors other than Camunda, Flowable and Activiti (nothing here reads them, and a
 * prefix bound again inside the document cannot be written back) — which bpmn-engine would otherwise try
 * to run or read, and fail with at start.
 */
function dropDescriptive(definitions: Definitions) {
  definitions.rootElements = (definitions.rootElements ?? []).filter((e) => ENGINE_ROOTS.has(e.$type));
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
    for (const ref of DESCRIPTIVE_REFS) delete el[ref];
    if (el.resources && el.$type !== 'bpmn:UserTask') el.resources = [];
    const ext = el.extensionElements as { values?: ModdleElement[] } | undefined;
    if (ext?.values)
      ext.values = ext.values.filter((v) => {
        const prefix = v.$type.includes(':') ? v.$type.split(':')[0] : '';
        return (
          !(v as { $descriptor?: { isGeneric?: boolean } }).$descriptor?.isGeneric ||
          ASSIGNMENT_NAMESPACES.has(namespaceOf(v, prefix, definitions) ?? '')
        );
      });
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
      // a file deployed before deployments gave its definitions an id: the engine's own name for it, by
      // which its instances' saved states find it
      definitions.id ||= UNNAMED_DEFINITIONS;
      const elements = processElements(definitions);
      normalizeAssignment(
        definitions,
        elements.filter((el) => el.$type === 'bpmn:UserTask'),
      );
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
export const SCOPE_PREFIX = '__es_';
/** The scope that holds a process's own path when it has event sub-processes. */
export const PROCESS_SCOPE = `${SCOPE_PREFIX}process_`;
/** the boundary event that starts an event sub-process */
export const EVENT_SUB_START = `${SCOPE_PREFIX}start_`;

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
  const tasks = processElements(definitions).filter((el) => ACTION_TASKS.has(el.$type));
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
