/**
 * The engine's timers, durable: bpmn-engine's timer functions are replaced by ones that only note each timer
 * (the service writes it to flow_wait and any server's poller fires it when due, see flow/timers.ts).
 */
import { PROCESS_SCOPE } from './normalize';

/** A timer the instance waits on; the database keeps it (flow_wait) and a poller fires it when due. */
export interface LiveTimer {
  executionId: string;
  activityId: string;
  expireAt: Date;
}

export interface TimerRef {
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
export function durableTimers() {
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

export type DurableTimers = ReturnType<typeof durableTimers>;
