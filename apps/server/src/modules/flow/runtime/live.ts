import type { EventEmitter } from 'node:events';
import type { Engine } from 'bpmn-engine';
import type { DurableTimers } from './timers';

/**
 * The engines of the instances this server ran last, each with the state it saved: the next run of such
 * an instance continues that engine instead of recovering it from the saved state (parsing it, making every
 * element again and resuming them was most of a step's work). It is used only while the instance's state in
 * the database is exactly the one it saved — a run that rolled back, or another server's, leaves another
 * state there, and the engine is recovered from the database as before — and never for a run that fires
 * timers (a due timer fires as the instance is recovered). An engine is taken out while it runs.
 */
export interface LiveEngine {
  name: string;
  xml: string;
  state: string;
  engine: Engine;
  execution: { getPostponed(): unknown[] };
  timers: DurableTimers;
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
/** The emit of the listener an engine is given: it passes each event on to the run's recorder (`target`). */
export function relayEmit(this: { target: EventEmitter }, event: string, ...args: unknown[]) {
  return this.target.emit(event, ...args);
}
/** Keeps an engine that still waits, with the state it saved, for its instance's next run. */
export function keep(entry: LiveEngine) {
  live.delete(entry.name);
  if (!liveMax) return;
  if (live.size >= liveMax) live.delete(live.keys().next().value as string);
  live.set(entry.name, entry);
}
/** The instance's engine when it is the one that saved `state` and no timer of it is due; taken out. */
export function takeLive(name: string, xml: string, state: string): LiveEngine | undefined {
  const entry = live.get(name);
  if (!entry) return undefined;
  live.delete(name);
  if (entry.xml !== xml || entry.state !== state) return undefined;
  const now = Date.now();
  if ([...entry.timers.live].some((t) => t.expireAt.getTime() <= now)) return undefined;
  return entry;
}
