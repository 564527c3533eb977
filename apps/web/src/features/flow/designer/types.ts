import type { DiagramDefinitions } from '../../../shell/flow/diagrams';
import type { wfZh } from '../strings';
/** The few bpmn-js / diagram-js services the designer uses, typed as far as it uses them. */

export interface BusinessObject {
  id: string;
  $type: string;
  name?: string;
  isExecutable?: boolean;
  conditionExpression?: { body?: string };
  default?: BusinessObject;
  processRef?: BusinessObject;
  get(name: string): unknown;
  set(name: string, value: unknown): void;
}

export interface DiagramElement {
  id: string;
  type: string;
  businessObject: BusinessObject;
  outgoing?: DiagramElement[];
  incoming?: DiagramElement[];
  source?: DiagramElement;
  target?: DiagramElement;
  labelTarget?: DiagramElement;
  children?: DiagramElement[];
}

export interface Modeling {
  updateProperties(element: DiagramElement, props: Record<string, unknown>): void;
  /** sets properties of a moddle element the shape holds (an event definition …), undoably */
  updateModdleProperties(
    element: DiagramElement,
    moddleElement: unknown,
    props: Record<string, unknown>,
  ): void;
  updateLabel(element: DiagramElement, text: string | null): void;
}

export interface EventBus {
  on(event: string, cb: (e: any) => void): void;
  on(event: string, priority: number, cb: (e: any) => void): void;
  off(event: string, cb: (e: any) => void): void;
}

export interface Services {
  modeling: Modeling;
  moddle: { create(type: string, attrs?: Record<string, unknown>): unknown };
  bpmnReplace: { replaceElement(element: DiagramElement, target: { type: string }): DiagramElement };
  selection: { select(element: DiagramElement | null): void; get(): DiagramElement[] };
  canvas: {
    getRootElement(): DiagramElement;
    zoom(level: 'fit-viewport' | number, center?: 'auto'): number;
  };
  eventBus: EventBus;
  elementRegistry: { getAll(): DiagramElement[]; get(id: string): DiagramElement | undefined };
  commandStack: { undo(): void; redo(): void; canUndo(): boolean; canRedo(): boolean };
  /** the content of expanded call activities (called-content.ts): drawn, never edited */
  calledContent: { isDrawn(element: DiagramElement): boolean; processName(element: DiagramElement): string };
}

/** What the panel and the designer need of a bpmn-js Modeler. */
export interface ModelerLike {
  get<K extends keyof Services>(name: K): Services[K];
  importXML(xml: string): Promise<{ warnings: unknown[] }>;
  /** draws another diagram of the file */
  open(diagramId: string): Promise<unknown>;
  getDefinitions(): DiagramDefinitions;
  saveXML(options?: { format?: boolean }): Promise<{ xml?: string }>;
  destroy(): void;
}

/** The element kinds the designer names (in lists and the panel's header), by BPMN type. */
export const ELEMENT_TYPE_KEYS: Record<string, keyof typeof wfZh.designer.types> = {
  'bpmn:StartEvent': 'startEvent',
  'bpmn:EndEvent': 'endEvent',
  'bpmn:UserTask': 'userTask',
  'bpmn:Task': 'task',
  'bpmn:ManualTask': 'manualTask',
  'bpmn:ExclusiveGateway': 'exclusiveGateway',
  'bpmn:ParallelGateway': 'parallelGateway',
  'bpmn:InclusiveGateway': 'inclusiveGateway',
  'bpmn:SequenceFlow': 'sequenceFlow',
  'bpmn:SubProcess': 'subProcess',
  'bpmn:IntermediateThrowEvent': 'intermediateEvent',
  'bpmn:TextAnnotation': 'annotation',
  'bpmn:ServiceTask': 'serviceTask',
  'bpmn:SendTask': 'sendTask',
  'bpmn:BusinessRuleTask': 'businessRuleTask',
  'bpmn:CallActivity': 'callActivity',
  'bpmn:BoundaryEvent': 'boundaryEvent',
  'bpmn:IntermediateCatchEvent': 'intermediateCatchEvent',
};
