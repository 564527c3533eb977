/**
 * Dead paths followed only as far as someone listens. bpmn-elements sends a discard down every flow not
 * taken, and each element it reaches runs a discard of its own and passes it on down all its outbound flows
 * (and those of the boundary events on it), around loops until the discard meets itself: after the leave
 * process's 审批 the rejection path (调整申请, 是否重新申请, back round to 审批 and its gateway again) was
 * discarded element by element — two thirds of the engine's messages of the approval, which has one element
 * to pass. Those discards only matter where something waits to hear of them: a join (a parallel or an
 * inclusive gateway with several inbound flows, which counts every inbound path, taken or not) and a link
 * event (a discarded throw discards its catch, whose path may lead to one). A discard heading for an element
 * from which neither can be reached ends on its flow, as bpmn-elements ends a discard that came round a loop
 * ("looped": the process counts the flow as done), and nothing downstream runs: no element there starts, ends
 * or writes history when discarded, so nothing else tells the difference.
 */

/** the parts of moddle-context-serializer's context read here (an executable diagram, shared by its engines) */
interface DiagramContext {
  getActivities(): ActivityDef[];
  getActivityById(id: string): ActivityDef | undefined;
  getInboundSequenceFlows(id: string): { sourceId: string }[] | undefined;
}
interface ActivityDef {
  id: string;
  type: string;
  behaviour?: { attachedTo?: { id?: string }; eventDefinitions?: { type?: string }[] };
}

const JOINS = new Set(['bpmn:ParallelGateway', 'bpmn:InclusiveGateway', 'bpmn:ComplexGateway']);

/** per diagram: whether a discard reaching an element is heard by anyone (the element ids where it is) */
const heard = new WeakMap<object, (id: string) => boolean>();

function listenersOf(diagram: DiagramContext): (id: string) => boolean {
  const activities = diagram.getActivities() ?? [];
  // where a discard is heard, then every element from which one of those is reached (walking back along the
  // flows, and from a boundary event to the element it is attached to)
  const heardAt = new Set<string>();
  const todo: string[] = [];
  const mark = (id: string | undefined) => {
    if (id && !heardAt.has(id)) {
      heardAt.add(id);
      todo.push(id);
    }
  };
  for (const a of activities)
    if (
      (JOINS.has(a.type) && (diagram.getInboundSequenceFlows(a.id) ?? []).length > 1) ||
      (a.behaviour?.eventDefinitions ?? []).some((d) => d.type === 'bpmn:LinkEventDefinition')
    )
      mark(a.id);
  const listed = new Set(activities.map((a) => a.id));
  while (todo.length) {
    const id = todo.pop() as string;
    for (const f of diagram.getInboundSequenceFlows(id) ?? []) mark(f.sourceId);
    mark(diagram.getActivityById(id)?.behaviour?.attachedTo?.id);
  }
  // (an element the diagram does not list is never one the engine runs: heard, as bpmn-elements would)
  return (id) => heardAt.has(id) || !listed.has(id);
}

/** Whether a discard reaching `targetId` of this diagram must go on (a join or a link event lies ahead). */
export function discardHeard(diagram: object, targetId: string): boolean {
  let of = heard.get(diagram);
  if (!of) {
    of = listenersOf(diagram as DiagramContext);
    heard.set(diagram, of);
  }
  return of(targetId);
}

interface FlowInstance {
  targetId: string;
  _publishEvent(action: string, content: object): void;
}
type FlowClass = {
  (this: FlowInstance, flowDef: object, context: { definitionContext: object }): void;
  prototype: { discard(this: FlowInstance, content?: object): unknown } & object;
};

const kUnheard = Symbol('discard unheard');

/** bpmn-elements' SequenceFlow whose discard stops where no one would hear it (see above). */
export function prunedSequenceFlow(Library: FlowClass) {
  function SequenceFlow(
    this: FlowInstance & { [kUnheard]?: boolean },
    flowDef: { targetId: string },
    context: { definitionContext: object },
  ) {
    Library.call(this, flowDef, context);
    this[kUnheard] = !discardHeard(context.definitionContext, flowDef.targetId);
  }
  SequenceFlow.prototype = Object.create(Library.prototype);
  SequenceFlow.prototype.discard = function (
    this: FlowInstance & { [kUnheard]?: boolean },
    content: { discardSequence?: string[] } = {},
  ) {
    if (this[kUnheard]) return this._publishEvent('looped', content);
    return Library.prototype.discard.call(this, content);
  };
  return SequenceFlow;
}
