/** A drawing of a BPMN file: a file may hold several (one per pool or process, a drilled-down sub-process). */
export interface DiagramChoice {
  id: string;
  name: string;
}

export interface DiagramDefinitions {
  rootElements?: { $type: string; id?: string }[];
  diagrams?: {
    id: string;
    name?: string;
    plane?: { bpmnElement?: { $type?: string; name?: string; id?: string } };
  }[];
}

/**
 * The file's top-level diagrams (a collapsed sub-process's own is reached by its drill-down), each named
 * by its own name, else what it draws, else its place in the file.
 */
export function diagramsOf(definitions: DiagramDefinitions | undefined): DiagramChoice[] {
  return (definitions?.diagrams ?? [])
    .filter((d) => d.plane?.bpmnElement?.$type !== 'bpmn:SubProcess')
    .map((d, i) => ({
      id: d.id,
      name: d.name || d.plane?.bpmnElement?.name || d.plane?.bpmnElement?.id || `${i + 1}`,
    }));
}
