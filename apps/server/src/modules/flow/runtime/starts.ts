/**
 * How a process starts: its timer start events (when each is due, the rows a deployment writes), its
 * message and signal start events, and whether the start routes and call activities may start it at all.
 */
import { timerDue } from '@smart/contracts';
import { type ModdleElement, parseBpmn } from './moddle';

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

/** A timer definition's kind and time expression. */
export function timerOf(def: ModdleElement): Omit<StartTimer, 'activityId'> | undefined {
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
