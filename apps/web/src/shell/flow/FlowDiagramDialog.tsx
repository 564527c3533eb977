/**
 * 流程图展示 (spec §2, §4): a BPMN 2.0 process drawn with bpmn-js (NavigatedViewer: pan and zoom), 70 %
 * wide, with the history highlighted — finished nodes in the success colour, active nodes (no end time)
 * in the primary colour, sequence flows taken in the warning colour. bpmn-js loads only when the dialog
 * opens. Give it the answer of `process/model-view`: `{ xml, flow }`.
 */
import { Modal, Select, theme } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DiagramChoice } from './diagrams';
import type { FlowHistoryItem } from './marks';

export type { FlowHistoryItem } from './marks';

export interface FlowDiagramDialogProps {
  open: boolean;
  onClose: () => void;
  /** BPMN 2.0 XML */
  xml: string;
  flow: FlowHistoryItem[];
  title?: string;
}

/** spec §9: the flow diagram dialog is 70 % wide */
export const FLOW_DIALOG_WIDTH = '70%';

export default function FlowDiagramDialog({ open, onClose, xml, flow, title }: FlowDiagramDialogProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // the dialog mounts its body after opening: draw when the element is there
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  // a file with several diagrams offers a switch between them
  const [diagrams, setDiagrams] = useState<DiagramChoice[]>([]);
  const [current, setCurrent] = useState<string>();
  const [openDiagram, setOpenDiagram] = useState<(id: string) => Promise<void>>();

  useEffect(() => {
    if (!open || !element) return;
    let destroyed = false;
    let destroy: (() => void) | undefined;
    setState('loading');
    import('./viewer')
      .then(({ renderDiagram }) => renderDiagram(element, xml, flow))
      .then((viewer) => {
        if (destroyed) viewer.destroy();
        else {
          destroy = () => viewer.destroy();
          setDiagrams(viewer.diagrams);
          setCurrent(viewer.diagrams[0]?.id);
          setOpenDiagram(() => viewer.open);
          setState('ready');
        }
      })
      .catch(() => {
        if (!destroyed) setState('error');
      });
    return () => {
      destroyed = true;
      destroy?.();
    };
  }, [open, element, xml, flow]);

  const colours = {
    '--flow-success': token.colorSuccess,
    '--flow-primary': token.colorPrimary,
    '--flow-warning': token.colorWarning,
  } as React.CSSProperties;

  return (
    <Modal
      open={open}
      title={title ?? t('flow.title')}
      width={FLOW_DIALOG_WIDTH}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      <ul
        aria-label={t('flow.legend')}
        style={{ display: 'flex', gap: 16, listStyle: 'none', padding: 0, margin: '0 0 8px' }}
      >
        {(
          [
            ['finished', token.colorSuccess],
            ['active', token.colorPrimary],
            ['sequence', token.colorWarning],
          ] as const
        ).map(([kind, colour]) => (
          <li key={kind} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
            <span aria-hidden style={{ width: 12, height: 12, borderRadius: 2, background: colour }} />
            {t(`flow.${kind}`)}
          </li>
        ))}
      </ul>
      {diagrams.length > 1 && (
        <Select
          aria-label={t('flow.diagramSwitch')}
          value={current}
          style={{ minWidth: 200, marginBottom: 8 }}
          options={diagrams.map((d) => ({ value: d.id, label: d.name }))}
          onChange={(id: string) => {
            setCurrent(id);
            openDiagram?.(id).catch(() => setState('error'));
          }}
        />
      )}
      <div
        ref={setElement}
        className="flow-diagram"
        role="img"
        aria-label={t('flow.diagram')}
        aria-busy={state === 'loading'}
        style={{ ...colours, height: '60vh', border: '1px solid rgba(5,5,5,.06)', borderRadius: 6 }}
      />
      {state === 'error' && (
        <p role="alert" style={{ color: token.colorError }}>
          {t('flow.error')}
        </p>
      )}
    </Modal>
  );
}
