/**
 * Loops in which nothing waits. An element that neither waits nor sets a variable (a gateway that is not a
 * join, an abstract or manual task, a throw event) passes a token on at once: a loop made only of such
 * elements runs again with the same variables each time it comes round, so once taken it never ends — the
 * engine recurses until its stack overflows (Flowable's too). The deployment check refuses such a loop,
 * naming its elements.
 */
import type { ModdleElement } from './moddle';

/** Elements that pass a token on at once; a join (more than one flow in) waits for its other paths. */
const PASSING = new Set([
  'bpmn:ExclusiveGateway',
  'bpmn:ParallelGateway',
  'bpmn:InclusiveGateway',
  'bpmn:Task',
  'bpmn:ManualTask',
  'bpmn:IntermediateThrowEvent',
  'bpmn:StartEvent',
  'bpmn:EndEvent',
]);
const JOINS = new Set(['bpmn:ParallelGateway', 'bpmn:InclusiveGateway']);

type Flow = ModdleElement & { sourceRef?: ModdleElement; targetRef?: ModdleElement };

/** The loops of one container's elements (a process or a sub-process) in which nothing waits. */
function loopsIn(elements: ModdleElement[]): ModdleElement[][] {
  const flows = elements.filter((e) => e.$type === 'bpmn:SequenceFlow') as Flow[];
  const incoming = new Map<string, number>();
  for (const f of flows)
    if (f.targetRef) incoming.set(f.targetRef.id, (incoming.get(f.targetRef.id) ?? 0) + 1);
  const passes = (el: ModdleElement) =>
    PASSING.has(el.$type) &&
    !(JOINS.has(el.$type) && (incoming.get(el.id) ?? 0) > 1) &&
    !el.loopCharacteristics;
  const nodes = elements.filter(passes);
  const ids = new Set(nodes.map((n) => n.id));
  const next = new Map<string, string[]>();
  for (const f of flows)
    if (f.sourceRef && f.targetRef && ids.has(f.sourceRef.id) && ids.has(f.targetRef.id))
      next.set(f.sourceRef.id, [...(next.get(f.sourceRef.id) ?? []), f.targetRef.id]);
  // Tarjan's strongly connected components over the passing elements
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      on.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (next.get(v) ?? []).includes(v)) found.push(component);
  };
  for (const n of nodes) if (!index.has(n.id)) visit(n.id);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return found.map((c) => nodes.filter((n) => c.includes(n.id)).map((n) => byId.get(n.id) as ModdleElement));
}

/** Every loop in which nothing waits, in the process and its sub-processes, as its elements. */
export function loopsThatNeverWait(process: ModdleElement): ModdleElement[][] {
  const all: ModdleElement[][] = [];
  const walk = (container: ModdleElement) => {
    all.push(...loopsIn(container.flowElements ?? []));
    for (const el of container.flowElements ?? []) if (el.flowElements) walk(el);
  };
  walk(process);
  return all;
}
