import { getDate, ISOInterval } from '@0dep/piso';

export * from './bpmn-expression';

/**
 * The BPMN 2.0 elements the server's engine runs (apps/server/src/modules/flow/runtime/); a diagram with
 * anything else is refused at deployment, naming the element, and the designer marks such elements.
 * Service-type tasks run a named action of the server's registry (never a script); which event definitions
 * each event may carry is checked by the server. Not here on purpose: complex gateways, transactions,
 * ad-hoc sub-processes.
 */
export const RUNNABLE_BPMN_ELEMENTS: readonly string[] = [
  'bpmn:StartEvent',
  'bpmn:EndEvent',
  'bpmn:UserTask',
  'bpmn:Task',
  'bpmn:ExclusiveGateway',
  'bpmn:ParallelGateway',
  'bpmn:InclusiveGateway',
  'bpmn:SubProcess',
  'bpmn:SequenceFlow',
  'bpmn:TextAnnotation',
  'bpmn:Association',
  'bpmn:DataObjectReference',
  'bpmn:DataObject',
  'bpmn:DataStoreReference',
  'bpmn:IntermediateThrowEvent',
  'bpmn:IntermediateCatchEvent',
  'bpmn:BoundaryEvent',
  'bpmn:EventBasedGateway',
  'bpmn:CallActivity',
  'bpmn:ServiceTask',
  'bpmn:SendTask',
  'bpmn:ScriptTask',
  'bpmn:BusinessRuleTask',
  'bpmn:ManualTask',
  'bpmn:ReceiveTask',
];

/** Largest count of intervals @0dep/piso steps through in 32-bit arithmetic (`~~q`). */
const MAX_STEPS = 2 ** 31 - 1;
/** a cycle repeating at most this often is stepped through quickly, however short its interval */
const FEW = 10_000;

/**
 * When a timer of `kind` written `value` is first due after `from` and how often it repeats after that
 * (-1: for ever), as the engine reads it (ISO 8601 with @0dep/piso); throws on a value that is not one.
 * The library steps through a cycle's repetitions from its start: a cycle repeating for ever (or very often)
 * whose interval has no length, or is so short for how long ago it started that the count overflows, would
 * never return — such a cycle is refused here, on both ends, before the library sees it.
 */
export function timerDue(
  kind: 'timeDuration' | 'timeDate' | 'timeCycle',
  value: string,
  from: Date,
): { dueAt: Date; repeat: number } {
  if (kind === 'timeDate') {
    const at = getDate(value);
    if (Number.isNaN(at.getTime())) throw new TimerError('invalid', `not a date: ${value}`);
    return { dueAt: at, repeat: 0 };
  }
  const interval = new ISOInterval(value).parse();
  if (!finite(interval, from))
    throw new TimerError('zeroInterval', `a repeating interval of no length: ${value}`);
  const dueAt = interval.getExpireAt(from, from);
  if (!dueAt || Number.isNaN(dueAt.getTime())) throw new TimerError('invalid', `not a duration: ${value}`);
  const repeat = kind === 'timeCycle' ? (interval.repeat === undefined ? -1 : interval.repeat - 1) : 0;
  return { dueAt, repeat };
}

/** Why timerDue refused a value: not ISO 8601 at all, or a cycle that never moves on. */
export class TimerError extends Error {
  constructor(
    readonly kind: 'invalid' | 'zeroInterval',
    message: string,
  ) {
    super(message);
  }
}

function finite(interval: ISOInterval, from: Date): boolean {
  const repeat = interval.repeat ?? 1;
  if ((repeat >= 0 && repeat <= FEW) || !interval.duration) return true;
  const ms = interval.duration.toMilliseconds(from);
  if (!(ms > 0)) return false;
  const anchor = interval.start?.toDate() ?? interval.end?.toDate();
  return !anchor || Math.abs(from.getTime() - anchor.getTime()) / ms < MAX_STEPS;
}

/**
 * A step whose users the step before it picks (a countersign: 会签, 或签, a share), as the server's
 * `/work/countersigns` names it from the deployed model: the start form and the handle form show one
 * required picker per step, sent as `variables[variable]` (a list of user ids).
 */
export interface CountersignStep {
  /** the multi-instance user task's (or sub-process's, call activity's) id and name */
  taskId: string;
  name: string;
  /** the process variable its collection reads: `approvers` of `${approvers}` */
  variable: string;
  /**
   * all must approve (no completion condition), any one (`nrOfCompletedInstances >= 1`), or a share; `each`:
   * a sub-process or a call activity every user picked goes through once
   */
  kind: 'all' | 'any' | 'share' | 'each';
  /** one after another in the order picked (`isSequential="true"`), else all at once */
  sequential: boolean;
}
