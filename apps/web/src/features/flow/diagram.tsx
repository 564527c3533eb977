/**
 * Opens the shell's flow diagram dialog (流程图展示, apps/web/src/shell/flow/FlowDiagramDialog.tsx) for a
 * process instance (its history highlighted) or a definition (just the drawing), fetching
 * process/model-view. The dialog's chunk, and bpmn-js with it, loads on the first open.
 */
import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { type DiagramTarget, fetchModelView } from './api';

const FlowDiagramDialog = lazy(() => import('../../shell/flow/FlowDiagramDialog'));

function DiagramLoader({
  target,
  title,
  onClose,
}: {
  target: DiagramTarget;
  title?: string;
  onClose: () => void;
}) {
  const view = useQuery({
    queryKey: ['flow-model-view', target],
    queryFn: () => fetchModelView(target),
    staleTime: 0,
    gcTime: 0,
  });
  // the client's toast has told why; nothing to show
  useEffect(() => {
    if (view.isError) onClose();
  }, [view.isError, onClose]);
  if (!view.data) return null;
  return (
    <Suspense fallback={null}>
      <FlowDiagramDialog open xml={view.data.xml} flow={view.data.flow} title={title} onClose={onClose} />
    </Suspense>
  );
}

/** `open(target)` shows the dialog; render `element` somewhere in the page. */
export function useFlowDiagram(): {
  open: (target: DiagramTarget, title?: string) => void;
  element: ReactNode;
} {
  const [shown, setShown] = useState<{ target: DiagramTarget; title?: string } | null>(null);
  return {
    open: (target, title) => setShown({ target, title }),
    element: shown ? (
      <DiagramLoader target={shown.target} title={shown.title} onClose={() => setShown(null)} />
    ) : null,
  };
}
