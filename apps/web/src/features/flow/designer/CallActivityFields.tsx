/**
 * The panel's part for a call activity: the process it calls (the tenant's deployed process keys and model
 * keys offered, any key may be typed) and the variables passed in and back (call-activity.ts, as the
 * server's engine reads them).
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { AutoComplete, Button, Checkbox, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useProcessKeys } from '../api';
import {
  checkCalledElement,
  checkMappings,
  type Direction,
  type Mapping,
  type Mappings,
  mappingsOf,
  mappingsUpdate,
} from './call-activity';
import type { ExtHolder } from './extensions';
import { PanelField, useProblemText } from './PanelField';
import type { DiagramElement, ModelerLike } from './types';

function MappingList({
  direction,
  mappings,
  baseId,
  onChange,
}: {
  direction: Direction;
  mappings: Mappings;
  baseId: string;
  onChange: (next: Mappings) => void;
}) {
  const { t } = useTranslation();
  const problemText = useProblemText();
  const title = t(`wf.designer.call.${direction}`);
  const problems = checkMappings(mappings.items);
  const update = (i: number, m: Partial<Mapping>) =>
    onChange({ ...mappings, items: mappings.items.map((x, j) => (j === i ? { ...x, ...m } : x)) });
  return (
    <fieldset style={{ border: 0, margin: '0 0 8px', padding: 0 }}>
      <legend style={{ fontSize: 14, marginBottom: 8 }}>{title}</legend>
      <Checkbox
        checked={mappings.all}
        onChange={(e) => onChange({ ...mappings, all: e.target.checked })}
        style={{ marginBottom: 8 }}
      >
        {t(direction === 'in' ? 'wf.designer.call.allIn' : 'wf.designer.call.allOut')}
      </Checkbox>
      {mappings.items.map((m, i) => {
        const n = i + 1;
        const error = problemText(problems[i].source) ?? problemText(problems[i].target);
        const helpId = `${baseId}-${direction}-${i}-help`;
        return (
          <Form.Item
            // biome-ignore lint/suspicious/noArrayIndexKey: mappings have no identity but their place
            key={i}
            validateStatus={error ? 'error' : undefined}
            help={error ? <span id={helpId}>{error}</span> : undefined}
            style={{ marginBottom: 8 }}
          >
            <div style={{ display: 'flex', gap: 4, alignItems: 'center' }}>
              <Input
                aria-label={t('wf.designer.call.sourceOf', { direction: title, n })}
                aria-invalid={problems[i].source ? true : undefined}
                aria-describedby={error ? helpId : undefined}
                placeholder={t('wf.designer.call.source')}
                value={m.source}
                onChange={(e) => update(i, { source: e.target.value })}
              />
              <span aria-hidden="true">→</span>
              <Input
                aria-label={t('wf.designer.call.targetOf', { direction: title, n })}
                aria-invalid={problems[i].target ? true : undefined}
                aria-describedby={error ? helpId : undefined}
                placeholder={t('wf.designer.call.target')}
                value={m.target}
                onChange={(e) => update(i, { target: e.target.value })}
              />
              <Button
                aria-label={t('wf.designer.call.removeMapping', { direction: title, n })}
                icon={<DeleteOutlined />}
                onClick={() => onChange({ ...mappings, items: mappings.items.filter((_, j) => j !== i) })}
              />
            </div>
          </Form.Item>
        );
      })}
      <Button
        icon={<PlusOutlined />}
        onClick={() => onChange({ ...mappings, items: [...mappings.items, { source: '', target: '' }] })}
      >
        {t('wf.designer.call.addMapping', { direction: title })}
      </Button>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 4 }}>
        {t(direction === 'in' ? 'wf.designer.call.inHelp' : 'wf.designer.call.outHelp')}
      </Typography.Paragraph>
    </fieldset>
  );
}

export function CallActivityFields({
  modeler,
  element,
  baseId,
  expanded,
}: {
  modeler: ModelerLike;
  element: DiagramElement;
  baseId: string;
  /** the call activity draws the process it calls (called-content.ts) */
  expanded: boolean;
}) {
  const { t } = useTranslation();
  const problemText = useProblemText();
  const keys = useProcessKeys();
  const modeling = modeler.get('modeling');
  const moddle = modeler.get('moddle');
  const bo = element.businessObject as unknown as ExtHolder & { calledElement?: string };
  const called = bo.calledElement ?? '';
  const error = checkCalledElement(called);
  const id = `${baseId}-calledElement`;
  const options = (keys.data ?? []).map((k) => ({
    value: k.key,
    label: `${k.name} (${k.key}) · ${t(k.deployed ? 'wf.designer.call.deployed' : 'wf.designer.call.model')}`,
  }));
  const setMappings = (direction: Direction, next: Mappings) =>
    modeling.updateProperties(element, mappingsUpdate(moddle, bo, direction, next));

  return (
    <>
      <PanelField
        id={id}
        label={t('wf.designer.call.calledElement')}
        help={t('wf.designer.call.calledElementHelp')}
        error={error?.kind === 'required' ? t('wf.designer.call.missing') : problemText(error)}
      >
        {(props) => (
          <AutoComplete
            {...props}
            value={called}
            options={options}
            placeholder={t('wf.designer.call.calledElementPlaceholder')}
            filterOption={(input, option) =>
              !!option && `${option.value} ${option.label}`.toLowerCase().includes(input.toLowerCase())
            }
            onChange={(v: string) => {
              if (v !== called) modeling.updateProperties(element, { calledElement: v || undefined });
            }}
          />
        )}
      </PanelField>
      {expanded && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t('wf.designer.call.expanded')}
        </Typography.Paragraph>
      )}
      {(['in', 'out'] as const).map((direction) => (
        <MappingList
          key={direction}
          direction={direction}
          baseId={baseId}
          mappings={mappingsOf(bo, direction)}
          onChange={(next) => setMappings(direction, next)}
        />
      ))}
    </>
  );
}
