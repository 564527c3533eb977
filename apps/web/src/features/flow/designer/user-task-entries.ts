/**
 * Adds 创建用户任务 to the palette and 追加用户任务 to the context pad: the approval steps a workflow here
 * is made of, one click away instead of "append task, then change its type".
 */
import { is } from 'bpmn-js/lib/util/ModelUtil';

interface Shape {
  type: string;
  businessObject: { $type: string; isForCompensation?: boolean; triggeredByEvent?: boolean };
}

type Translate = (text: string) => string;

interface Services {
  palette: { registerProvider(p: object): void };
  contextPad: { registerProvider(p: object): void };
  create: { start(event: Event, shape: unknown, context?: object): void };
  elementFactory: { createShape(attrs: object): unknown };
  autoPlace?: { append(source: Shape, shape: unknown): void };
  translate: Translate;
}

class UserTaskEntries {
  static $inject = ['palette', 'contextPad', 'create', 'elementFactory', 'autoPlace', 'translate'];

  private readonly s: Services;

  constructor(
    palette: Services['palette'],
    contextPad: Services['contextPad'],
    create: Services['create'],
    elementFactory: Services['elementFactory'],
    autoPlace: Services['autoPlace'],
    translate: Translate,
  ) {
    this.s = { palette, contextPad, create, elementFactory, autoPlace, translate };
    palette.registerProvider(this);
    contextPad.registerProvider(this);
  }

  private shape() {
    return this.s.elementFactory.createShape({ type: 'bpmn:UserTask' });
  }

  getPaletteEntries() {
    const start = (event: Event) => this.s.create.start(event, this.shape());
    return {
      'create.user-task': {
        group: 'activity',
        className: 'bpmn-icon-user-task',
        title: this.s.translate('Create user task'),
        action: { dragstart: start, click: start },
      },
    };
  }

  getContextPadEntries(element: Shape) {
    const bo = element.businessObject;
    if (
      !is(bo, 'bpmn:FlowNode') ||
      is(bo, 'bpmn:EndEvent') ||
      is(bo, 'bpmn:BoundaryEvent') ||
      bo.isForCompensation ||
      (is(bo, 'bpmn:SubProcess') && bo.triggeredByEvent)
    )
      return {};
    const appendStart = (event: Event, source: Shape) => this.s.create.start(event, this.shape(), { source });
    const append = this.s.autoPlace
      ? (_: Event, source: Shape) => this.s.autoPlace!.append(source, this.shape())
      : appendStart;
    return {
      'append.user-task': {
        group: 'model',
        className: 'bpmn-icon-user-task',
        title: this.s.translate('Append user task'),
        action: { dragstart: appendStart, click: append },
      },
    };
  }
}

export const userTaskEntriesModule = {
  __init__: ['userTaskEntries'],
  userTaskEntries: ['type', UserTaskEntries],
};
