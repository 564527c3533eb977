/**
 * Timer events (a bpmn:TimerEventDefinition on a boundary event, an intermediate catch event or a start
 * event): which kind of time it holds and whether the server's engine accepts it. The check is the server's
 * (`timerDue` of @smart/contracts/bpmn, which the server's `dueOf` runs); a value with `${…}` is left to the
 * engine, as the server does.
 */
import {
  checkExpression,
  type ExpressionError,
  TimerError as TimerDueError,
  timerDue,
} from '@smart/contracts/bpmn';

export const TIMER_KINDS = ['timeDuration', 'timeDate', 'timeCycle'] as const;
export type TimerKind = (typeof TIMER_KINDS)[number];

/** The common times, one click each. */
export const TIMER_PRESETS = [
  { id: 'hour', kind: 'timeDuration', value: 'PT1H' },
  { id: 'day', kind: 'timeDuration', value: 'P1D' },
  { id: 'threeDays', kind: 'timeDuration', value: 'P3D' },
  { id: 'daily', kind: 'timeCycle', value: 'R/P1D' },
  { id: 'weekly', kind: 'timeCycle', value: 'R/P1W' },
] as const satisfies readonly { id: string; kind: TimerKind; value: string }[];

export type TimerError =
  | { kind: 'required' }
  | { kind: 'invalid' }
  /** a repeating interval of no length (or too short for its start): the library would never return */
  | { kind: 'zeroInterval' }
  | { kind: 'expression'; error: ExpressionError };

/** The time expressions of a timer definition, as the moddle reads them. */
export interface TimerDefinition {
  $type: string;
  timeDuration?: { body?: string };
  timeDate?: { body?: string };
  timeCycle?: { body?: string };
}

/**
 * The kind and value a timer holds: the first of cycle, date, duration with a value (the server's order),
 * else the kind that is there without one, else a duration.
 */
export function timerOf(def: TimerDefinition): { kind: TimerKind; value: string } {
  for (const kind of ['timeCycle', 'timeDate', 'timeDuration'] as const) {
    const value = def[kind]?.body?.trim();
    if (value) return { kind, value: def[kind]?.body ?? '' };
  }
  const present = TIMER_KINDS.find((k) => def[k]);
  return { kind: present ?? 'timeDuration', value: '' };
}

/** null when the server's engine accepts `value` as a timer of `kind`, else what is wrong. */
export function checkTimer(kind: TimerKind, value: string, from = new Date()): TimerError | null {
  const text = value.trim();
  if (!text) return { kind: 'required' };
  if (text.includes('${')) {
    if (!text.startsWith('${')) return null;
    const error = checkExpression(text);
    return error ? { kind: 'expression', error } : null;
  }
  try {
    timerDue(kind, text, from);
    return null;
  } catch (e) {
    return { kind: e instanceof TimerDueError ? e.kind : 'invalid' };
  }
}
