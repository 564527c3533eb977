/**
 * The deployment check: what a diagram may hold to run here, every problem of a file gathered into one
 * refusal (DiagramRefusal, in both languages), and what a deployment keeps of the process (ProcessInfo).
 */
import { RUNNABLE_BPMN_ELEMENTS, type Text2, TimerError } from '@smart/contracts';
import { checkExpression } from '../expressions';
import { loopsThatNeverWait } from './cycles';
import { ACTION_TASKS, actionOf } from './extensions';
import { type Definitions, isEventSubProcess, type ModdleElement, parseBpmn, type Ref } from './moddle';
import { normalizeAssignment, normalizeExpressions, normalizeLoops } from './normalize';
import { dueOf, type StartEventTrigger, type StartTimer, timerOf } from './starts';

/** Elements the engine runs here; a diagram with anything else is refused at deployment, with its name. */
const RUNNABLE = new Set(RUNNABLE_BPMN_ELEMENTS);

export interface ProcessInfo {
  processKey: string;
  name: string;
  /** the process's timer start events */
  startTimers: StartTimer[];
  /** the process's message and signal start events: a message or signal of that name starts an instance */
  startEvents: StartEventTrigger[];
}

/** Which event definitions run on which element (bpmn-engine's behaviour, with the service's waits). */
const EVENT_KINDS: Record<string, string[]> = {
  'bpmn:EndEvent': [
    'TerminateEventDefinition',
    'ErrorEventDefinition',
    'EscalationEventDefinition',
    'SignalEventDefinition',
  ],
  'bpmn:IntermediateCatchEvent': ['TimerEventDefinition', 'MessageEventDefinition', 'SignalEventDefinition'],
  'bpmn:BoundaryEvent': [
    'TimerEventDefinition',
    'MessageEventDefinition',
    'SignalEventDefinition',
    'ErrorEventDefinition',
    'EscalationEventDefinition',
  ],
};
/** a process starts by the API, by its timer, or by a message or signal its start event catches */
const TOP_START_KINDS = ['TimerEventDefinition', 'MessageEventDefinition', 'SignalEventDefinition'];
/** an event sub-process starts on what the process meets */
const EVENT_SUB_START_KINDS = [...EVENT_KINDS['bpmn:BoundaryEvent']];

/**
 * The actions a service-type task may name (actions.ts runs them): the platform's three, and those a
 * business module registers for its own processes (actions.ts registerFlowAction).
 */
export const ACTION_NAMES: string[] = ['notice', 'variables', 'http'];

/** Why a diagram cannot be deployed, in both languages (the deployment answer names the file before it). */
export class DiagramRefusal extends Error {
  constructor(readonly text: Text2) {
    super(text.en);
  }
}

/** Problems of a diagram, gathered: a deployment names every one at once. */
class Problems {
  readonly list: Text2[] = [];
  add(problem: Text2) {
    if (!this.list.some((p) => p.en === problem.en)) this.list.push(problem);
  }
  /** throws one refusal naming them all (in the order found), each language's list in its own punctuation */
  check() {
    if (this.list.length)
      throw new DiagramRefusal({
        zh: this.list.map((p) => p.zh).join(';'),
        en: this.list.map((p) => p.en).join('; '),
      });
  }
}

const typeOf = (el: ModdleElement) => el.$type.replace('bpmn:', '');
const nameOf = (el: ModdleElement) => `${typeOf(el)} "${el.name ?? el.id}"`;
/** a condition the engine evaluates safely: one ${…} expression of expressions.ts, no script language */
const EXPRESSION = /^\s*\$\{[\s\S]*\}\s*$/;

/** whether an element is one of the process's own (not inside a sub-process) */
const isTopLevel = (el: ModdleElement, process: ModdleElement) => (process.flowElements ?? []).includes(el);

/**
 * An event sub-process runs (scopeEventSubProcesses) when it is what BPMN says it is: no sequence flow in or
 * out, one start event, which names one trigger — an error, escalation, message, signal or timer — and
 * interrupts when it is an error (the kinds themselves are checked with the other events).
 */
function checkEventSubProcess(
  sub: ModdleElement,
  all: { el: ModdleElement; arrivals: number }[],
  problems: Problems,
) {
  const linked = all.some(
    ({ el }) =>
      el.$type === 'bpmn:SequenceFlow' &&
      (el.targetRef?.id === sub.id || (el as { sourceRef?: ModdleElement }).sourceRef?.id === sub.id),
  );
  if (linked)
    problems.add({
      zh: `${nameOf(sub)} 是事件子流程: 不能有顺序流进入或离开它`,
      en: `${nameOf(sub)} is an event sub-process: no sequence flow may enter or leave it`,
    });
  const starts = (sub.flowElements ?? []).filter((el) => el.$type === 'bpmn:StartEvent');
  const start = starts[0];
  const triggers = start?.eventDefinitions ?? [];
  if (starts.length !== 1 || triggers.length !== 1) {
    problems.add({
      zh: `${nameOf(sub)} 是事件子流程: 需要恰好一个开始事件,并指定一种触发方式(错误、升级、消息、信号或定时)`,
      en: `${nameOf(sub)} is an event sub-process: it needs exactly one start event naming one trigger (error, escalation, message, signal or timer)`,
    });
    return;
  }
  const trigger = triggers[0] as ModdleElement & { messageRef?: unknown; signalRef?: unknown };
  if (
    trigger.$type === 'bpmn:ErrorEventDefinition' &&
    (start as { isInterrupting?: boolean }).isInterrupting === false
  )
    problems.add({
      zh: `${nameOf(sub)} 的 ${nameOf(start)} 捕获错误,错误总是中断流程(不能设置 isInterrupting="false")`,
      en: `${nameOf(start)} of ${nameOf(sub)} catches an error, which always interrupts (isInterrupting="false" is not allowed)`,
    });
  if (
    (trigger.$type === 'bpmn:MessageEventDefinition' && !trigger.messageRef) ||
    (trigger.$type === 'bpmn:SignalEventDefinition' && !trigger.signalRef)
  ) {
    const what = trigger.$type === 'bpmn:MessageEventDefinition' ? 'message' : 'signal';
    problems.add({
      zh: `${nameOf(sub)} 的 ${nameOf(start)} 没有指定要等待的${what === 'message' ? '消息' : '信号'} (${what}Ref)`,
      en: `${nameOf(start)} of ${nameOf(sub)} names no ${what} to wait for (${what}Ref)`,
    });
  }
}

/**
 * Parses and checks a diagram before it is deployed: well-formed BPMN 2.0, exactly one executable process,
 * only elements the engine runs, expressions in the supported language. Throws a DiagramRefusal naming
 * what cannot run, so nothing is deployed that would fail half-way.
 */
export async function inspectDiagram(xml: string): Promise<ProcessInfo> {
  if (!xml?.includes('definitions'))
    throw new DiagramRefusal({ zh: '不是 BPMN 2.0 文档', en: 'not a BPMN 2.0 document' });
  let definitions: Definitions;
  try {
    const parsed = await parseBpmn(xml);
    definitions = parsed.definitions;
    const fatal = parsed.warnings.find((w) => /unparsable|unresolved reference/i.test(w.message));
    if (fatal) throw new Error(fatal.message);
  } catch (e) {
    const reason = (e as Error).message.split('\n')[0];
    throw new DiagramRefusal({ zh: `BPMN 文件有误: ${reason}`, en: `invalid BPMN: ${reason}` });
  }
  const problems = new Problems();
  const roots = definitions.rootElements ?? [];
  // message flows would start the other pools' processes inside the engine (or reach a pool with none)
  for (const c of roots.filter((e) => e.$type === 'bpmn:Collaboration'))
    for (const flow of c.messageFlows ?? [])
      problems.add({
        zh: `流程引擎不能执行池之间的 ${nameOf(flow)}`,
        en: `${nameOf(flow)} between pools cannot be executed here`,
      });
  const processes = roots.filter((e) => e.$type === 'bpmn:Process');
  const runnable = processes.filter((p) => p.isExecutable);
  if (!runnable.length)
    problems.add({
      zh: '没有可执行的流程 (isExecutable="true")',
      en: 'no executable process (isExecutable="true")',
    });
  if (runnable.length > 1)
    problems.add({ zh: '可执行的流程多于一个', en: 'more than one executable process' });
  if (runnable.length !== 1) problems.check();
  // every element, at any depth, with the arrivals of its container's flows (<incoming> is optional in a file)
  const all: { el: ModdleElement; arrivals: number }[] = [];
  const collect = (elements: ModdleElement[] = []) => {
    const incoming = new Map<string, number>();
    for (const f of elements)
      if (f.$type === 'bpmn:SequenceFlow' && f.targetRef)
        incoming.set(f.targetRef.id, (incoming.get(f.targetRef.id) ?? 0) + 1);
    for (const el of elements) {
      all.push({ el, arrivals: incoming.get(el.id) ?? 0 });
      if (el.flowElements) collect(el.flowElements);
    }
  };
  collect(runnable[0].flowElements);
  const tasks = all.map((a) => a.el).filter((el) => el.$type === 'bpmn:UserTask');
  normalizeAssignment(definitions, tasks);
  normalizeLoops(
    definitions,
    all.map((a) => a.el),
  );
  normalizeExpressions(all.map((a) => a.el));
  for (const el of tasks)
    if (!el.assignee && !el.candidateUsers && !el.candidateGroups)
      problems.add({
        zh: `${nameOf(el)} 没有指定处理人(办理人、候选用户或候选组),无人能收到它`,
        en: `${nameOf(el)} names nobody to receive it (assignee, candidate users or groups)`,
      });
  // the start events of event sub-processes (triggeredByEvent) catch what the process meets
  const eventSubStarts = new Set(
    all
      .map((a) => a.el)
      .filter(isEventSubProcess)
      .flatMap((sub) => (sub.flowElements ?? []).filter((e) => e.$type === 'bpmn:StartEvent')),
  );
  const startTimers: StartTimer[] = [];
  const startEvents: StartEventTrigger[] = [];
  // what the engine has no behaviour for is named first; then what it would run wrongly
  for (const { el } of all)
    if (!RUNNABLE.has(el.$type))
      problems.add({ zh: `流程引擎不能执行 ${nameOf(el)}`, en: `${nameOf(el)} cannot be executed here` });
  for (const { el } of all) {
    if (!RUNNABLE.has(el.$type)) continue; // named above; once is enough
    if (el.eventDefinitions?.length) {
      const kinds = el.eventDefinitions.map(typeOf);
      const inEventSub = eventSubStarts.has(el);
      const allowed =
        el.$type === 'bpmn:StartEvent'
          ? inEventSub
            ? EVENT_SUB_START_KINDS
            : TOP_START_KINDS
          : (EVENT_KINDS[el.$type] ?? []);
      if (el.$type !== 'bpmn:IntermediateThrowEvent' && !kinds.every((k) => allowed.includes(k)))
        problems.add({
          zh: `流程引擎不能执行 ${nameOf(el)} (${kinds.join(', ')})`,
          en: `${nameOf(el)} (${kinds.join(', ')}) cannot be executed here`,
        });
      for (const def of el.eventDefinitions) {
        if (def.$type !== 'bpmn:TimerEventDefinition') continue;
        const timer = timerOf(def);
        if (!timer) {
          problems.add({
            zh: `${nameOf(el)} 的定时器没有设置时间(timeDuration、timeDate 或 timeCycle)`,
            en: `${nameOf(el)} has a timer without a time (timeDuration, timeDate or timeCycle)`,
          });
          continue;
        }
        if (timer.value.includes('${')) continue;
        try {
          dueOf(timer.kind, timer.value, new Date());
        } catch (e) {
          if (e instanceof TimerError && e.kind === 'zeroInterval')
            problems.add({
              zh: `${nameOf(el)} 的周期 "${timer.value}" 间隔为 0(周期的间隔必须大于 0)`,
              en: `${nameOf(el)}: the cycle "${timer.value}" repeats with an interval of no length (it must be longer than 0)`,
            });
          else
            problems.add({
              zh: `${nameOf(el)} 的时间 "${timer.value}" 不是 ISO 8601 ${timer.kind === 'timeDate' ? '日期' : timer.kind === 'timeCycle' ? '周期' : '时长'}`,
              en: `${nameOf(el)}: "${timer.value}" is not an ISO 8601 ${timer.kind === 'timeDate' ? 'date' : timer.kind === 'timeCycle' ? 'cycle' : 'duration'}`,
            });
        }
        if (el.$type === 'bpmn:StartEvent' && !inEventSub) startTimers.push({ activityId: el.id, ...timer });
      }
    }
    if (el.$type === 'bpmn:StartEvent' && !eventSubStarts.has(el) && isTopLevel(el, runnable[0]))
      for (const def of el.eventDefinitions ?? []) {
        const kind =
          def.$type === 'bpmn:MessageEventDefinition'
            ? 'message'
            : def.$type === 'bpmn:SignalEventDefinition'
              ? 'signal'
              : undefined;
        if (!kind) continue;
        const ref = (def as { messageRef?: Ref; signalRef?: Ref })[`${kind}Ref`];
        if (!ref?.id)
          problems.add({
            zh: `${nameOf(el)} 没有指定发起流程的${kind === 'message' ? '消息' : '信号'} (${kind}Ref)`,
            en: `${nameOf(el)} names no ${kind} to start on (${kind}Ref)`,
          });
        else startEvents.push({ activityId: el.id, kind, name: ref.name ?? ref.id });
      }
    if (isEventSubProcess(el)) checkEventSubProcess(el, all, problems);
    if (el.$type === 'bpmn:CallActivity' && !(el as { calledElement?: string }).calledElement)
      problems.add({
        zh: `${nameOf(el)} 没有指定要调用的流程 (calledElement)`,
        en: `${nameOf(el)} names no process to call (calledElement)`,
      });
    // a call activity of this file that names one of its global tasks: Flowable calls processes only (by
    // key), and so does this engine
    const called = roots.find(
      (r) => el.$type === 'bpmn:CallActivity' && r.id === (el as { calledElement?: string }).calledElement,
    );
    if (called && called.$type !== 'bpmn:Process')
      problems.add({
        zh: `${nameOf(el)} 调用的 ${nameOf(called)} 不是流程: 调用活动只能调用已部署的流程(与 Flowable 相同),请改为调用一个流程,或把它画成一个任务`,
        en: `${nameOf(el)} calls ${nameOf(called)}, which is not a process: a call activity calls deployed processes only (as in Flowable); call a process, or draw it as a task`,
      });
    if (el.$type === 'bpmn:ReceiveTask' && !(el as { messageRef?: unknown }).messageRef)
      problems.add({
        zh: `${nameOf(el)} 没有指定要等待的消息 (messageRef)`,
        en: `${nameOf(el)} names no message to wait for (messageRef)`,
      });
    if (ACTION_TASKS.has(el.$type)) {
      const { action } = actionOf(el as never);
      const script = (el as { script?: string }).script;
      if (el.$type === 'bpmn:ScriptTask' && script?.trim())
        problems.add({
          zh: `${nameOf(el)} 含有脚本: 这里从不执行脚本(请改为指定动作: ${ACTION_NAMES.join('、')})`,
          en: `${nameOf(el)} holds a script: scripts never run here (name an action instead: ${ACTION_NAMES.join(', ')})`,
        });
      else if (!action || !ACTION_NAMES.includes(action))
        problems.add({
          zh: `${nameOf(el)} 没有指定本系统提供的动作(flowable:type 或 camunda:type: ${ACTION_NAMES.join('、')})`,
          en: `${nameOf(el)} names no action this system offers (flowable:type or camunda:type: ${ACTION_NAMES.join(', ')})`,
        });
    }
    const loop = el.loopCharacteristics as
      | (ModdleElement & {
          collection?: string;
          loopCardinality?: { body?: string };
          completionCondition?: { body?: string };
        })
      | undefined;
    // multi-instance (over a list or a count): user tasks (countersigns), call activities, sub-processes
    const multi =
      loop?.$type === 'bpmn:MultiInstanceLoopCharacteristics' &&
      (el.$type === 'bpmn:UserTask' ||
        el.$type === 'bpmn:CallActivity' ||
        (el.$type === 'bpmn:SubProcess' && !isEventSubProcess(el))) &&
      (!!loop.collection || !!loop.loopCardinality?.body);
    if (loop && !multi)
      problems.add({
        zh: `流程引擎不能执行带 ${typeOf(loop)} 的 ${nameOf(el)}(多实例或循环)`,
        en: `${nameOf(el)} with ${typeOf(loop)} cannot be executed here`,
      });
    const done = loop?.completionCondition?.body?.trim();
    if (multi && done) {
      try {
        checkExpression(done);
      } catch (e) {
        problems.add({
          zh: `${nameOf(el)} 的完成条件 "${done}" 有误: ${(e as Error).message}`,
          en: `the completion condition "${done}" of ${nameOf(el)}: ${(e as Error).message}`,
        });
      }
    }
    const condition = el.conditionExpression;
    if (condition && (condition.language || !EXPRESSION.test(condition.body ?? '')))
      problems.add({
        zh: `${nameOf(el)} 的条件${condition.language ? `是 ${condition.language} 脚本` : '不是 ${…} 表达式'}: 这里只执行 \${…} 表达式`,
        en: `the condition of ${nameOf(el)} is ${condition.language ? `a ${condition.language} script` : 'not a ${…} expression'}: only \${…} expressions are executed here`,
      });
    for (const text of [condition?.body, el.assignee, el.candidateUsers, el.candidateGroups]) {
      if (text?.includes('${')) {
        for (const part of text.split(',').filter((p) => p.includes('${'))) {
          try {
            checkExpression(part.trim());
          } catch (e) {
            const reason = (e as Error).message;
            problems.add({
              zh: `${nameOf(el)} 的表达式 "${part.trim()}" 有误: ${reason}`,
              en: `expression "${part.trim()}" on ${nameOf(el)}: ${reason}`,
            });
          }
        }
      }
    }
  }
  for (const loop of loopsThatNeverWait(runnable[0])) {
    const names = loop.map(nameOf);
    problems.add({
      zh: `${names.join('、')} 组成一个不等待的循环: 一旦回到这里就永不结束(循环里要有用户任务、接收任务、服务任务、定时或消息事件等)`,
      en: `${names.join(', ')} make a loop in which nothing waits: once taken it never ends (a loop needs a user, receive or service task, a timer or message event … on its way)`,
    });
  }
  problems.check();
  return {
    processKey: runnable[0].id,
    name: runnable[0].name ?? runnable[0].id,
    startTimers,
    startEvents,
  };
}
