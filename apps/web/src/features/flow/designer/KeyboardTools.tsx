/**
 * The designer without a mouse: pick an element from a list (it is selected and scrolled into view), append
 * a user task, a gateway or an end event after it, connect it to another element, delete it. Everything the
 * canvas's palette and context pad do for a linear or branching approval flow, as ordinary form controls.
 */
import { DeleteOutlined } from '@ant-design/icons';
import { Button, Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DiagramElement, ELEMENT_TYPE_KEYS, type ModelerLike } from './types';

interface Extra {
  autoPlace: { append(source: DiagramElement, shape: unknown): DiagramElement };
  elementFactory: { createShape(attrs: { type: string }): unknown };
  bpmnRules: { canConnect(source: DiagramElement, target: DiagramElement): false | { type: string } };
  modeling: {
    connect(source: DiagramElement, target: DiagramElement, attrs?: object): DiagramElement;
    removeElements(elements: DiagramElement[]): void;
  };
  canvas: { scrollToElement(element: DiagramElement): void };
}

function useDiagramState(modeler: ModelerLike) {
  const [selected, setSelected] = useState<DiagramElement | null>(null);
  const [, setRevision] = useState(0);
  useEffect(() => {
    const bus = modeler.get('eventBus');
    const onSelection = (e: { newSelection: DiagramElement[] }) => {
      const one = e.newSelection.length === 1 ? e.newSelection[0] : null;
      setSelected(one?.labelTarget ?? one);
    };
    const onChanged = () => setRevision((r) => r + 1);
    bus.on('selection.changed', onSelection);
    bus.on('elements.changed', onChanged);
    return () => {
      bus.off('selection.changed', onSelection);
      bus.off('elements.changed', onChanged);
    };
  }, [modeler]);
  return selected;
}

export function KeyboardTools({ modeler }: { modeler: ModelerLike }) {
  const { t } = useTranslation();
  const selected = useDiagramState(modeler);
  const get = <K extends keyof Extra>(name: K) => (modeler.get as unknown as (n: K) => Extra[K])(name);
  const drawn = modeler.get('calledContent');
  // what an expanded call activity draws of the process it calls is not part of this one: left out
  const elements = modeler
    .get('elementRegistry')
    .getAll()
    .filter(
      (e) =>
        e.type !== 'label' &&
        ELEMENT_TYPE_KEYS[e.type] &&
        e.type !== 'bpmn:TextAnnotation' &&
        !drawn.isDrawn(e),
    );
  const labelOf = (e: DiagramElement) =>
    `${t(`wf.designer.types.${ELEMENT_TYPE_KEYS[e.type]}`)} · ${e.businessObject.name || e.id}`;
  const isNode =
    !!selected &&
    selected.type !== 'bpmn:SequenceFlow' &&
    !!ELEMENT_TYPE_KEYS[selected.type] &&
    !drawn.isDrawn(selected);
  const canAppend = isNode && selected?.type !== 'bpmn:EndEvent';

  const select = (id: string | undefined) => {
    const el = id ? modeler.get('elementRegistry').get(id) : undefined;
    modeler.get('selection').select(el ?? null);
    if (el) get('canvas').scrollToElement(el);
  };
  const append = (type: string) => {
    if (!selected) return;
    const shape = get('autoPlace').append(selected, get('elementFactory').createShape({ type }));
    if (shape) modeler.get('selection').select(shape);
  };
  const targets = isNode
    ? elements.filter(
        (e) => e !== selected && e.type !== 'bpmn:SequenceFlow' && get('bpmnRules').canConnect(selected!, e),
      )
    : [];

  return (
    <Space wrap size={8} role="toolbar" aria-label={t('wf.designer.keyboardTools')}>
      <Select
        showSearch
        allowClear
        optionFilterProp="label"
        aria-label={t('wf.designer.pickElement')}
        placeholder={t('wf.designer.pickElement')}
        style={{ width: 220 }}
        value={selected?.id}
        onChange={select}
        options={elements.map((e) => ({ value: e.id, label: labelOf(e) }))}
      />
      <Button disabled={!canAppend} onClick={() => append('bpmn:UserTask')}>
        {t('wf.designer.appendUserTask')}
      </Button>
      <Button disabled={!canAppend} onClick={() => append('bpmn:ExclusiveGateway')}>
        {t('wf.designer.appendGateway')}
      </Button>
      <Button disabled={!canAppend} onClick={() => append('bpmn:EndEvent')}>
        {t('wf.designer.appendEnd')}
      </Button>
      <Select
        aria-label={t('wf.designer.connectTo')}
        placeholder={t('wf.designer.connectTo')}
        disabled={!targets.length}
        style={{ width: 200 }}
        value={null}
        onChange={(id: string) => {
          const target = modeler.get('elementRegistry').get(id);
          if (selected && target) get('modeling').connect(selected, target);
        }}
        options={targets.map((e) => ({ value: e.id, label: labelOf(e) }))}
      />
      <Button
        danger
        icon={<DeleteOutlined />}
        disabled={!selected || selected === modeler.get('canvas').getRootElement() || drawn.isDrawn(selected)}
        onClick={() => selected && get('modeling').removeElements([selected])}
      >
        {t('wf.designer.removeSelected')}
      </Button>
    </Space>
  );
}
