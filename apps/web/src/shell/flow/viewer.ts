/** bpmn-js and its styles: a chunk of their own, loaded when a flow diagram dialog opens. */
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import './flow.css';
import NavigatedViewer from 'bpmn-js/lib/NavigatedViewer';
import { type FlowHistoryItem, marksOf } from './marks';

interface Canvas {
  zoom(level: 'fit-viewport', center?: 'auto'): void;
  addMarker(id: string, marker: string): void;
}
interface ElementRegistry {
  get(id: string): unknown;
}

export async function renderDiagram(container: HTMLElement, xml: string, flow: readonly FlowHistoryItem[]) {
  const viewer = new NavigatedViewer({ container });
  try {
    await viewer.importXML(xml);
    const canvas = viewer.get<Canvas>('canvas');
    const registry = viewer.get<ElementRegistry>('elementRegistry');
    canvas.zoom('fit-viewport', 'auto');
    for (const [id, mark] of marksOf(flow)) {
      if (registry.get(id)) canvas.addMarker(id, mark);
    }
    return viewer;
  } catch (error) {
    viewer.destroy();
    throw error;
  }
}
