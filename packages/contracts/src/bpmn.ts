/**
 * The BPMN 2.0 elements the server's engine runs (apps/server/src/modules/flow/runtime.ts); a diagram with
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
