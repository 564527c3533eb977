/**
 * Expanded call activities in the designer, drawn as the diagram viewer draws them (shell/flow/called.ts:
 * the box with its name at the top, and the shapes and flows of the process it calls inside it). What is
 * drawn inside belongs to another process of the file, so it is shown, never edited here:
 * - nothing may move, resize, delete, connect, replace or relabel it, or drop anything onto it (rules, the
 *   context pad and direct editing refuse; the keyboard tools and the panel leave it out);
 * - moving the call activity moves what it shows with it, in the same command (one undo);
 * - bpmn-js's updater never gives a drawn element a new semantic parent: a move (even one the rules do not
 *   see, like the space tool's) changes only where it is drawn, so saving writes every element into the
 *   process it came from.
 * Drawn again after every import and every switch of diagram.
 */
import { drawCalledProcesses, drawExpandedCallActivities } from '../../../shell/flow/called';

interface El {
  id: string;
  type: string;
  parent?: El;
  labelTarget?: El;
  waypoints?: unknown[];
  businessObject: { $type: string; id?: string; calledElement?: string; $parent?: El['businessObject'] };
  di?: { isExpanded?: boolean };
}

interface Injector {
  get(name: string): any;
}

type RuleContext = {
  element?: El;
  shapes?: El[];
  elements?: El[];
  shape?: El;
  source?: El;
  target?: El;
  hover?: El;
  connection?: El;
};

const HIGH = 2000;

const isExpandedCall = (el: El) => el.type === 'bpmn:CallActivity' && !!el.di?.isExpanded;

/** The process an element belongs to (its nearest bpmn:Process ancestor). */
function processOf(bo: El['businessObject'] | undefined) {
  for (let p = bo?.$parent; p; p = p.$parent) if (p.$type === 'bpmn:Process') return p;
  return undefined;
}

export class CalledContent {
  static $inject = [
    'injector',
    'eventBus',
    'elementRegistry',
    'bpmnUpdater',
    'modeling',
    'contextPad',
    'bpmnjs',
  ];

  private drawn = new WeakSet<El>();
  private readonly viewer: Injector;

  constructor(
    injector: Injector,
    eventBus: { on(event: string, priority: number, fn: (e: any) => unknown): void },
    private readonly registry: { getAll(): El[] },
    bpmnUpdater: { updateParent(element: El, oldParent?: El): void },
    modeling: { moveElements(shapes: El[], delta: { x: number; y: number }): void },
    contextPad: { registerProvider(priority: number, provider: object): void },
    bpmnjs: { getDefinitions(): { rootElements?: unknown[] } | undefined },
  ) {
    this.viewer = { get: (name) => injector.get(name) };
    drawExpandedCallActivities(this.viewer as never);

    eventBus.on('import.render.complete', 500, () => {
      this.drawn = new WeakSet();
      const before = new Set(this.registry.getAll());
      drawCalledProcesses(this.viewer as never, (bpmnjs.getDefinitions()?.rootElements ?? []) as never);
      for (const el of this.registry.getAll()) if (!before.has(el)) this.drawn.add(el);
    });

    // a drawn element keeps its semantic parent, whatever moves it
    const updateParent = bpmnUpdater.updateParent.bind(bpmnUpdater);
    bpmnUpdater.updateParent = (element, oldParent) => {
      if (!this.isDrawn(element)) updateParent(element, oldParent);
    };

    const rule = (actions: string[], fn: (ctx: RuleContext) => unknown) => {
      for (const action of actions)
        eventBus.on(`commandStack.${action}.canExecute`, HIGH, (e: { context: RuleContext }) =>
          fn(e.context),
        );
    };
    const any = (els: (El | undefined)[] | undefined) => (els ?? []).some((el) => el && this.isDrawn(el));
    rule(['elements.move'], ({ shapes, target }) => {
      // nothing goes into a drawn container
      if (target && this.isDrawn(target)) return false;
      const moved = new Set(shapes ?? []);
      // a drawn shape moves only with its call activity
      const alone = (shapes ?? []).some(
        (el) => this.isDrawn(el) && !this.owners(el).some((c) => moved.has(c)),
      );
      return alone ? false : undefined;
    });
    rule(['shape.resize', 'shape.replace'], ({ shape, element }) =>
      any([shape, element]) ? false : undefined,
    );
    rule(['elements.delete'], ({ elements }) => {
      if (!any(elements)) return undefined;
      const rest = (elements ?? []).filter((el) => !this.isDrawn(el));
      return rest.length ? rest : false;
    });
    rule(
      ['connection.start', 'connection.create', 'connection.reconnect', 'connection.updateWaypoints'],
      (ctx) => (any([ctx.source, ctx.target, ctx.hover, ctx.connection]) ? false : undefined),
    );
    rule(['shape.create', 'elements.create', 'shape.attach'], ({ target }) =>
      target && this.isDrawn(target) ? false : undefined,
    );
    rule(['elements.align', 'elements.distribute'], ({ elements }) => (any(elements) ? false : undefined));
    eventBus.on('directEditing.activate.allowed', HIGH, ({ element }: { element: El }) =>
      this.isDrawn(element) ? false : undefined,
    );
    // last of the providers: a drawn element's pad is empty
    contextPad.registerProvider(1, {
      getContextPadEntries: (el: El) => (this.isDrawn(el) ? () => ({}) : undefined),
      getMultiElementContextPadEntries: (els: El[]) => (any(els) ? () => ({}) : undefined),
    });

    // the call activity takes what it shows along
    eventBus.on(
      'commandStack.elements.move.postExecute',
      1000,
      (e: { context: { delta: { x: number; y: number }; closure?: { allShapes: Record<string, El> } } }) => {
        const moved = e.context.closure?.allShapes ?? {};
        const along = Object.values(moved)
          .filter(isExpandedCall)
          .flatMap((call) => this.contentOf(call))
          .filter((el) => !moved[el.id]);
        if (along.length) modeling.moveElements(along, e.context.delta);
      },
    );
  }

  /** Whether `element` was drawn from a called process (a label counts as its element). */
  isDrawn(element: El): boolean {
    return this.drawn.has(element) || (!!element.labelTarget && this.drawn.has(element.labelTarget));
  }

  /** The expanded call activities that show `element`'s process. */
  private owners(element: El): El[] {
    const process = processOf((element.labelTarget ?? element).businessObject);
    return this.registry
      .getAll()
      .filter((c) => isExpandedCall(c) && !!process && c.businessObject.calledElement === process.id);
  }

  /** The drawn shapes of the process `call` calls that are not inside another drawn shape. */
  private contentOf(call: El): El[] {
    const id = call.businessObject.calledElement;
    return this.registry
      .getAll()
      .filter(
        (el) =>
          this.drawn.has(el) &&
          !el.waypoints &&
          el.type !== 'label' &&
          !(el.parent && this.drawn.has(el.parent)) &&
          processOf(el.businessObject)?.id === id,
      );
  }

  /** The name of the process a drawn element belongs to. */
  processName(element: El): string {
    const process = processOf((element.labelTarget ?? element).businessObject) as
      | { id?: string; name?: string }
      | undefined;
    return process?.name || process?.id || '';
  }
}

export const calledContentModule = {
  __init__: ['calledContent'],
  calledContent: ['type', CalledContent],
};
