/**
 * How a converging parallel gateway (and an inclusive one, which runs as one: loadElements) counts what
 * arrives. bpmn-elements sends a discard down every path not taken, so a join hears from each of its inbound
 * paths, taken or not; and after a merge (an exclusive gateway or a task with two inbound flows) that one
 * path taken and one discarded both reach, everything downstream hears twice: the token, then the discard
 * that chased it. bpmn-elements' join passes once it has heard from every source, but it takes a second
 * arrival of a source that already arrived into that same round: the discard that chased the token of one
 * branch was used up by the first round, and the discard of the other branch, arriving after the round
 * passed, began a round that no arrival of the first branch would ever complete. That arrival stayed
 * pending in the process for ever, so an instance whose every task was done never ended.
 *
 * Here a round takes exactly one arrival per source, the earliest, in the order they came; a later arrival
 * of a source already in the round waits for the next round (the inbound queue redelivers it once the
 * gateway has run), so each round pairs what belongs together: the tokens, then the discards.
 */

const kFlows = Symbol.for('flows');

interface JoinMessage {
  fields: { routingKey: string };
  content: { sourceId: string; discardSequence?: string[] } & Record<string, unknown>;
  ack(): void;
}
interface JoinActivity {
  [kFlows]: { inboundJoinFlows: Set<JoinMessage>; inboundSourceIds: Set<string> };
  broker: { cancel(tag: string): void };
  run(content: object): void;
  _runDiscard(content: object): void;
}
type ActivityClass = {
  prototype: {
    _onJoinInbound(this: JoinActivity, routingKey: string, message: JoinMessage): void;
  } & Record<string, unknown>;
};

/** a copy of a message's content (bpmn-elements' cloneContent, as far as inbound needs it) */
const copy = (content: JoinMessage['content']) => ({
  ...content,
  ...(content.discardSequence ? { discardSequence: [...content.discardSequence] } : {}),
});

function onJoinInbound(this: JoinActivity, _routingKey: string, message: JoinMessage) {
  const { inboundJoinFlows, inboundSourceIds } = this[kFlows];
  inboundJoinFlows.add(message);
  const round = new Map<string, JoinMessage>();
  for (const m of inboundJoinFlows) if (!round.has(m.content.sourceId)) round.set(m.content.sourceId, m);
  if (round.size < inboundSourceIds.size) return;
  let taken = false;
  const inbound: object[] = [];
  const discardSequence = new Set<string>();
  for (const m of round.values()) {
    if (m.fields.routingKey === 'flow.take') taken = true;
    m.ack();
    inbound.push(copy(m.content));
    for (const id of m.content.discardSequence ?? []) discardSequence.add(id);
  }
  // what is left belongs to the next round: un-acknowledged, the queue hands it back when the gateway
  // consumes its inbound again (cancelling the consumer puts it back in its place)
  inboundJoinFlows.clear();
  this.broker.cancel('_run-on-inbound');
  if (!taken) return this._runDiscard({ inbound, discardSequence: [...discardSequence] });
  return this.run({ inbound });
}

/** bpmn-elements' own counting, as it was before patchJoin (the run's tests show what it left behind) */
export let libraryJoin: ActivityClass['prototype']['_onJoinInbound'] | undefined;

/** Replaces bpmn-elements' join counting with the one above (once: activities bind it as they are made). */
export function patchJoin(Activity: ActivityClass) {
  if (Activity.prototype._onJoinInbound === onJoinInbound) return;
  libraryJoin = Activity.prototype._onJoinInbound;
  Activity.prototype._onJoinInbound = onJoinInbound;
}
