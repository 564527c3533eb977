/**
 * Expanded call activities (a call activity whose shape is `isExpanded="true"`, the called process drawn
 * inside it — the BPMN MIWG's B.2.0 does this): bpmn-js draws every call activity collapsed and leaves
 * out the shapes of the process it calls, so the box stays empty. Here the viewer draws them: the call
 * activity as an expanded box (its name at the top, no "+" marker), and the called process' shapes and
 * flows of the diagram on top of it, as the file places them.
 */

interface Moddle {
  $type: string;
  id?: string;
  name?: string;
  $parent?: Moddle;
  flowElements?: Moddle[];
  artifacts?: Moddle[];
  calledElement?: string;
  rootElements?: Moddle[];
}

interface DiElement {
  $type: string;
  isExpanded?: boolean;
  bpmnElement?: Moddle;
  planeElement?: DiElement[];
}

interface Shape {
  id: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  businessObject: Moddle;
  di?: DiElement;
}

interface Services {
  get(name: 'eventBus'): {
    on(
      event: string,
      priority: number,
      fn: (e: unknown, context: { element: Shape; gfx: SVGGElement }) => unknown,
    ): void;
  };
  get(name: 'bpmnRenderer'): { drawShape(gfx: SVGGElement, element: Shape): SVGElement };
  get(name: 'textRenderer'): { createText(text: string, options: object): SVGElement };
  get(name: 'elementRegistry'): { get(id: string): Shape | undefined; getAll(): Shape[] };
  get(name: 'canvas'): { getRootElement(): Shape & { di?: DiElement } };
  get(name: 'bpmnImporter'): { add(semantic: Moddle, di: DiElement, parent: Shape): Shape };
}

const isExpandedCall = (el: Shape) => el.type === 'bpmn:CallActivity' && !!el.di?.isExpanded;

/** Draws an expanded call activity as a box with its name at the top (bpmn-js would draw it collapsed). */
export function drawExpandedCallActivities(viewer: Services) {
  const renderer = viewer.get('bpmnRenderer');
  const text = viewer.get('textRenderer');
  viewer.get('eventBus').on('render.shape', 1500, (_e, { element, gfx }) => {
    if (!isExpandedCall(element)) return undefined;
    const visual = renderer.drawShape(gfx, element);
    // keep the thick-bordered box; its middle label and "+" marker go
    for (const child of [...gfx.children]) if (child !== visual) child.remove();
    const label = text.createText(element.businessObject.name ?? '', {
      box: { width: element.width, height: element.height },
      align: 'center-top',
      padding: 7,
    });
    label.classList.add('djs-label');
    gfx.appendChild(label);
    return visual;
  });
}

/** Every element a process holds, sub-processes' included. */
function elementsOf(process: Moddle, out = new Set<string>()): Set<string> {
  for (const el of [...(process.flowElements ?? []), ...(process.artifacts ?? [])]) {
    if (el.id) out.add(el.id);
    if (el.flowElements || el.artifacts) elementsOf(el, out);
  }
  return out;
}

/**
 * Adds, on the diagram shown, the shapes and flows of the processes its expanded call activities call
 * (drawn by the diagram, left out by bpmn-js's import). Answers how many it drew.
 */
export function drawCalledProcesses(viewer: Services, rootElements: readonly Moddle[]): number {
  const registry = viewer.get('elementRegistry');
  const root = viewer.get('canvas').getRootElement();
  const importer = viewer.get('bpmnImporter');
  const called = new Set<string>();
  for (const call of registry.getAll().filter(isExpandedCall)) {
    const process = rootElements.find(
      (r) => r.$type === 'bpmn:Process' && r.id === call.businessObject.calledElement,
    );
    if (process) elementsOf(process, called);
  }
  if (!called.size) return 0;
  const missing = (root.di?.planeElement ?? []).filter((di) => {
    const id = di.bpmnElement?.id;
    return !!id && called.has(id) && !registry.get(id);
  });
  // containers before what they hold, shapes before the flows between them
  const depth = (el: Moddle | undefined): number => (el?.$parent ? 1 + depth(el.$parent) : 0);
  const shapes = missing
    .filter((di) => di.$type === 'bpmndi:BPMNShape')
    .sort((a, b) => depth(a.bpmnElement) - depth(b.bpmnElement));
  const edges = missing.filter((di) => di.$type === 'bpmndi:BPMNEdge');
  let drawn = 0;
  for (const di of [...shapes, ...edges]) {
    const semantic = di.bpmnElement!;
    const parentId = semantic.$parent?.$type === 'bpmn:SubProcess' ? semantic.$parent.id : undefined;
    const parent = (parentId && registry.get(parentId)) || root;
    try {
      importer.add(semantic, di, parent);
      drawn++;
    } catch {
      /* a flow whose ends are not drawn here: left out, as bpmn-js would */
    }
  }
  return drawn;
}
