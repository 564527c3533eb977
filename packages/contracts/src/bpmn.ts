/**
 * The BPMN 2.0 elements the server's engine runs (apps/server/src/modules/flow/runtime.ts); a diagram with
 * anything else is refused at deployment, naming the element, and the designer marks such elements.
 * Not here on purpose: manual tasks (the engine would wait on them, yet nobody is given a task), boundary
 * and catch events, timers, messages, scripts, service calls, call activities, complex and event-based
 * gateways.
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
];
