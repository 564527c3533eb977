/** bpmn-js and its styles: a chunk of their own, loaded when a flow diagram dialog opens. */
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import './flow.css';
import NavigatedViewer from 'bpmn-js/lib/NavigatedViewer';
import { drawCalledProcesses, drawExpandedCallActivities } from './called';
import { type DiagramDefinitions, diagramsOf } from './diagrams';
import { type FlowHistoryItem, marksOf } from './marks';

interface Canvas {
  zoom(level: 'fit-viewport', center?: 'auto'): void;
  addMarker(id: string, marker: string): void;
}
interface ElementRegistry {
  get(id: string): unknown;
}

interface ViewerApi {
  get<T>(name: string): T;
  open(diagramId: string): Promise<unknown>;
  getDefinitions(): DiagramDefinitions;
  destroy(): void;
}

/**
 * Draws what bpmn-js leaves out (the content of expanded call activities), fits the drawing on screen and
 * marks the history on what it shows.
 */
function showHistory(viewer: ViewerApi, flow: readonly FlowHistoryItem[]) {
  drawCalledProcesses(viewer as never, viewer.getDefinitions().rootElements ?? []);
  const canvas = viewer.get<Canvas>('canvas');
  const registry = viewer.get<ElementRegistry>('elementRegistry');
  canvas.zoom('fit-viewport', 'auto');
  for (const [id, mark] of marksOf(flow)) {
    if (registry.get(id)) canvas.addMarker(id, mark);
  }
}

export async function renderDiagram(container: HTMLElement, xml: string, flow: readonly FlowHistoryItem[]) {
  const viewer = new NavigatedViewer({ container }) as unknown as ViewerApi;
  drawExpandedCallActivities(viewer as never);
  try {
    await (viewer as unknown as { importXML(x: string): Promise<unknown> }).importXML(xml);
    showHistory(viewer, flow);
    const diagrams = diagramsOf(viewer.getDefinitions());
    return {
      diagrams,
      /** draws another of the file's diagrams, with the history marked on it */
      open: async (id: string) => {
        await viewer.open(id);
        showHistory(viewer, flow);
      },
      destroy: () => viewer.destroy(),
    };
  } catch (error) {
    viewer.destroy();
    throw error;
  }
}
