/**
 * Timer events (a bpmn:TimerEventDefinition on a boundary event, an intermediate catch event or a start
 * event): which kind of time it holds and whether the server's engine accepts it. The check is the server's
 * (runtime.ts `dueOf`, with the same library, @0dep/piso): a date is `getDate`, a duration or a cycle an
 * `ISOInterval` that yields a due time; a value with `${…}` is left to the engine, as the server does.
 */
import { getDate, ISOInterval } from '@0dep/piso';
import { checkExpression, type ExpressionError } from './expression';

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

/** Largest count of intervals the library steps through in 32-bit arithmetic (`~~q`). */
const MAX_STEPS = 2 ** 31 - 1;
/** a cycle repeating at most this often is stepped through quickly, however short its interval */
const FEW = 10_000;

/**
 * Whether @0dep/piso can work out when this interval is due. It steps through the repetitions from the
 * start: a cycle repeating for ever (or very often) whose interval has no length, or is so short for how
 * long ago the cycle started that the count overflows, sends it into a loop that never ends (the server's
 * `dueOf` would hang on `R/PT0S` too).
 */
function finite(interval: ISOInterval, from: Date): boolean {
  const repeat = interval.repeat ?? 1;
  if ((repeat >= 0 && repeat <= FEW) || !interval.duration) return true;
  const ms = interval.duration.toMilliseconds(from);
  if (!(ms > 0)) return false;
  const anchor = interval.start?.toDate() ?? interval.end?.toDate();
  return !anchor || Math.abs(from.getTime() - anchor.getTime()) / ms < MAX_STEPS;
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
    if (kind === 'timeDate') return Number.isNaN(getDate(text).getTime()) ? { kind: 'invalid' } : null;
    const interval = new ISOInterval(text).parse();
    if (!finite(interval, from)) return { kind: 'zeroInterval' };
    const due = interval.getExpireAt(from, from);
    return !due || Number.isNaN(due.getTime()) ? { kind: 'invalid' } : null;
  } catch {
    return { kind: 'invalid' };
  }
}
