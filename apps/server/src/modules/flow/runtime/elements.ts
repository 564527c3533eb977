import { timerDue } from '@smart/contracts';
import { prunedSequenceFlow } from './discards';
import { patchJoin } from './join';
import { EVENT_SUB_START, PROCESS_SCOPE } from './normalize';
import type { StartTimer } from './starts';
import { ENTRY, ITERATION } from './variables';

/** bpmn-elements' boundary event behaviour, as far as RepeatingBoundaryBehaviour uses it */
interface BoundaryBehaviour {
  id: string;
  cancelActivity: boolean;
  activity: { eventDefinitions?: { type?: string }[] };
  _onRepeatMessage(routingKey: string, message: { content: object }): void;
}
type BoundaryBehaviourClass = {
  call(self: BoundaryBehaviour, activity: unknown): void;
  prototype: { _onCompleted(this: BoundaryBehaviour, routingKey: string, message: object): unknown };
};

/**
 * The element behaviours that differ from bpmn-engine's (bpmn-elements' classes, patched once, with the first
 * run): an inclusive gateway joins as BPMN says (it waits for every incoming path, taken or not — untaken
 * paths arrive as discarded, so only the paths actually taken are waited for); service-type tasks wait for
 * the service to run their named action; each iteration of a multi-instance sub-process keeps its element
 * variable; the process's start events start as the run says (ENTRY); a non-interrupting event
 * sub-process started by a message or a signal starts again at the next one; a timer's time given by an
 * expression is checked as a deployed one is; a discard stops where nothing ahead would hear it (discards.ts).
 */
let elementsModule: Promise<Record<string, unknown>> | undefined;
export async function loadElements() {
  elementsModule ??= (async () => {
    const elements = (await import('bpmn-elements')) as unknown as {
      Activity: new (behaviour: unknown, def: object, context: unknown) => unknown;
      SignalTask: unknown;
      TimerEventDefinition: TimerDefinitionClass;
      SequenceFlow: Parameters<typeof prunedSequenceFlow>[0];
    };
    // a join's round: one arrival per source (join.ts)
    patchJoin(elements.Activity as never);
    const { InclusiveGatewayBehaviour } = (await import('bpmn-elements/gateways')) as unknown as {
      InclusiveGatewayBehaviour: unknown;
    };
    const { BoundaryEventBehaviour, StartEventBehaviour } = (await import(
      'bpmn-elements/events'
    )) as unknown as {
      BoundaryEventBehaviour: BoundaryBehaviourClass;
      StartEventBehaviour: StartBehaviourClass;
    };
    const { SubProcessBehaviour } = (await import('bpmn-elements/tasks')) as unknown as {
      SubProcessBehaviour: SubProcessBehaviourClass;
    };
    // each iteration of a multi-instance sub-process runs in an environment of its own: its element variable
    // and loopCounter are kept there (ITERATION), so the expressions and the task assignments inside it read
    // them; the engine saves that environment with the iteration, so a recovered one still has them
    const upsert = SubProcessBehaviour.prototype._upsertExecution;
    if (!(upsert as { iterations?: boolean }).iterations) {
      const withIteration = function (this: SubProcessBehaviourInstance, executeMessage: ExecuteMessage) {
        const content = executeMessage.content;
        const fresh = !this._getExecutionById(content.executionId);
        const execution = upsert.call(this, executeMessage);
        if (fresh && content.isMultiInstance) {
          const element = this.loopCharacteristics?.elementVariable;
          const variables = execution.environment.variables;
          variables[ITERATION] = {
            ...((variables[ITERATION] as object | undefined) ?? {}),
            ...(element ? { [element]: content[element] } : {}),
            loopCounter: content.index,
          };
        }
        return execution;
      };
      (withIteration as { iterations?: boolean }).iterations = true;
      SubProcessBehaviour.prototype._upsertExecution = withIteration;
    }
    // the process's own start events: one started by a message or a signal (the run's ENTRY variable names
    // it) passes at once and every other start event is discarded; one started otherwise (the API, a call)
    // discards its message and signal start events, which only a message or signal starts
    function EntryStartBehaviour(this: StartBehaviourInstance, activity: StartActivity) {
      StartEventBehaviour.call(this, activity);
    }
    EntryStartBehaviour.prototype = Object.create(StartEventBehaviour.prototype);
    EntryStartBehaviour.prototype.execute = function (
      this: StartBehaviourInstance,
      executeMessage: ExecuteMessage,
    ) {
      const { activity } = this;
      const container = activity.parent;
      const own = container?.type === 'bpmn:Process' || !!container?.id?.startsWith(PROCESS_SCOPE);
      if (own && executeMessage.content.isRootScope) {
        const entry = activity.environment.variables[ENTRY];
        const byEvent = (activity.eventDefinitions ?? []).some(
          (d) => d.type === 'bpmn:MessageEventDefinition' || d.type === 'bpmn:SignalEventDefinition',
        );
        const content = { ...executeMessage.content };
        if (entry ? entry !== activity.id : byEvent)
          return this.broker.publish('execution', 'execute.discard', content);
        if (byEvent) return this.broker.publish('execution', 'execute.completed', content);
      }
      return StartEventBehaviour.prototype.execute.call(this, executeMessage);
    };
    function StartEvent(def: object, context: unknown) {
      return new elements.Activity(EntryStartBehaviour, def, context);
    }
    // the gateway's behaviour (pass on) is kept; only the join differs: bpmn-elements joins what it is told
    // is a parallel gateway by waiting for every inbound flow, taken or discarded
    // (a function, not an arrow: the engine calls it with `new`)
    function InclusiveGateway(def: object, context: unknown) {
      return new elements.Activity(InclusiveGatewayBehaviour, { ...def, isParallelGateway: true }, context);
    }
    // a non-interrupting event sub-process (a boundary event on the scope of its container, see
    // scopeEventSubProcesses) started by a message or a signal starts again each time one arrives, as long as
    // its container runs: bpmn-elements re-arms a non-interrupting boundary event only for a timer's cycle
    function RepeatingBoundaryBehaviour(this: BoundaryBehaviour, activity: unknown) {
      BoundaryEventBehaviour.call(this, activity);
    }
    RepeatingBoundaryBehaviour.prototype = Object.create(BoundaryEventBehaviour.prototype);
    RepeatingBoundaryBehaviour.prototype._onCompleted = function (
      this: BoundaryBehaviour,
      routingKey: string,
      message: { content: { cancelActivity?: boolean } },
    ) {
      const kinds = (this.activity.eventDefinitions ?? []).map((d) => d.type);
      if (
        this.id.startsWith(EVENT_SUB_START) &&
        !this.cancelActivity &&
        message.content.cancelActivity !== true &&
        kinds.some((k) => k === 'bpmn:MessageEventDefinition' || k === 'bpmn:SignalEventDefinition')
      )
        this._onRepeatMessage(routingKey, { content: {} });
      return BoundaryEventBehaviour.prototype._onCompleted.call(this, routingKey, message);
    };
    function BoundaryEvent(def: object, context: unknown) {
      return new elements.Activity(RepeatingBoundaryBehaviour, def, context);
    }
    // a timer whose time an expression gives (`${cycle}`, from what an applicant typed) is checked as a
    // deployed one is: a cycle that never moves on is an error of the run, not a loop that holds the server
    const LibraryTimer = elements.TimerEventDefinition;
    function TimerEventDefinition(this: object, ...args: unknown[]) {
      LibraryTimer.apply(this, args);
    }
    TimerEventDefinition.prototype = Object.create(LibraryTimer.prototype);
    TimerEventDefinition.prototype.parse = function (this: object, kind: StartTimer['kind'], value: string) {
      if (kind !== 'timeDate') timerDue(kind, value, new Date());
      return LibraryTimer.prototype.parse.call(this, kind, value);
    };
    // a discard goes on only where a join or a link event lies ahead (discards.ts)
    const SequenceFlow = prunedSequenceFlow(elements.SequenceFlow);
    return {
      SequenceFlow,
      InclusiveGateway,
      BoundaryEvent,
      StartEvent,
      TimerEventDefinition,
      ServiceTask: elements.SignalTask,
      SendTask: elements.SignalTask,
      BusinessRuleTask: elements.SignalTask,
      ScriptTask: elements.SignalTask,
    };
  })();
  return elementsModule;
}

interface ExecuteMessage {
  content: Record<string, unknown> & {
    executionId: string;
    isRootScope?: boolean;
    isMultiInstance?: boolean;
  };
}
interface SubProcessBehaviourInstance {
  loopCharacteristics?: { elementVariable?: string };
  _getExecutionById(executionId: string): unknown;
}
type SubProcessBehaviourClass = {
  prototype: {
    _upsertExecution(
      this: SubProcessBehaviourInstance,
      executeMessage: ExecuteMessage,
    ): { environment: { variables: Record<string, unknown> } };
  };
};
interface StartActivity {
  id: string;
  parent?: { id?: string; type?: string };
  eventDefinitions?: { type?: string }[];
  environment: { variables: Record<string, unknown> };
}
interface StartBehaviourInstance {
  activity: StartActivity;
  broker: { publish(exchange: string, routingKey: string, content: object): unknown };
}
type StartBehaviourClass = {
  call(self: StartBehaviourInstance, activity: StartActivity): void;
  prototype: { execute(this: StartBehaviourInstance, executeMessage: ExecuteMessage): unknown };
};

interface TimerDefinitionClass {
  (this: object, ...args: unknown[]): void;
  prototype: { parse(this: object, kind: string, value: string): unknown };
}
