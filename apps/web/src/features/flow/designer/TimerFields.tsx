/**
 * The panel's part for a timer event (boundary, intermediate catch or start): its kind (时长 / 日期 / 周期)
 * and time, checked as ISO 8601 as it is typed (timer.ts, the server's rules), common times one click
 * away, and for a boundary event whether it interrupts the task it is attached to.
 */
import { Button, Input, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PanelField, useProblemText } from './PanelField';
import {
  checkTimer,
  TIMER_KINDS,
  TIMER_PRESETS,
  type TimerDefinition,
  type TimerError,
  type TimerKind,
  timerOf,
} from './timer';
import type { DiagramElement, ModelerLike } from './types';

/** The timer definition of an event, if it has one. */
export function timerDefinitionOf(element: DiagramElement): TimerDefinition | undefined {
  const defs = (element.businessObject as { eventDefinitions?: TimerDefinition[] }).eventDefinitions ?? [];
  return defs.find((d) => d.$type === 'bpmn:TimerEventDefinition');
}

export function useTimerErrorText() {
  const { t } = useTranslation();
  const problemText = useProblemText();
  return (kind: TimerKind, e: TimerError | null) => {
    if (!e) return undefined;
    if (e.kind === 'expression') return problemText(e);
    if (e.kind === 'invalid')
      return t('wf.designer.timer.errors.invalid', { kind: t(`wf.designer.timer.kinds.${kind}`) });
    return t(`wf.designer.timer.errors.${e.kind}`);
  };
}

export function TimerFields({
  modeler,
  element,
  definition,
  baseId,
}: {
  modeler: ModelerLike;
  element: DiagramElement;
  definition: TimerDefinition;
  baseId: string;
}) {
  const { t } = useTranslation();
  const errorText = useTimerErrorText();
  const modeling = modeler.get('modeling');
  const moddle = modeler.get('moddle');
  const { kind, value } = timerOf(definition);
  const id = (key: string) => `${baseId}-${key}`;
  const boundary = element.businessObject.$type === 'bpmn:BoundaryEvent';
  const interrupting = element.businessObject.get('cancelActivity') !== false;

  const setTimer = (nextKind: TimerKind, nextValue: string) => {
    if (nextKind === kind && nextValue === value) return;
    const props: Record<string, unknown> = {};
    for (const k of TIMER_KINDS)
      props[k] = k === nextKind ? moddle.create('bpmn:FormalExpression', { body: nextValue }) : undefined;
    modeling.updateModdleProperties(element, definition, props);
  };

  return (
    <>
      <Typography.Title level={5} style={{ fontSize: 14 }}>
        {t('wf.designer.timer.title')}
      </Typography.Title>
      <PanelField id={id('timerKind')} label={t('wf.designer.timer.kind')}>
        {(props) => (
          <Select
            {...props}
            value={kind}
            options={TIMER_KINDS.map((k) => ({ value: k, label: t(`wf.designer.timer.kinds.${k}`) }))}
            onChange={(k: TimerKind) => setTimer(k, value)}
          />
        )}
      </PanelField>
      <PanelField
        id={id('timerValue')}
        label={t('common.time')}
        help={t(`wf.designer.timer.help.${kind}`)}
        error={errorText(kind, checkTimer(kind, value))}
      >
        {(props) => (
          <Input
            {...props}
            value={value}
            placeholder={
              kind === 'timeDate' ? '2026-06-01T09:00:00+08:00' : kind === 'timeCycle' ? 'R/P1D' : 'P1D'
            }
            onChange={(e) => setTimer(kind, e.target.value)}
          />
        )}
      </PanelField>
      <fieldset style={{ border: 0, margin: '0 0 12px', padding: 0 }}>
        <legend style={{ fontSize: 12, color: 'rgba(0, 0, 0, 0.45)', marginBottom: 4, border: 0 }}>
          {t('wf.designer.timer.presets')}
        </legend>
        <Space size={4} wrap>
          {TIMER_PRESETS.map((p) => (
            <Button
              key={p.id}
              size="small"
              autoInsertSpace={false}
              aria-pressed={p.kind === kind && p.value === value}
              onClick={() => setTimer(p.kind, p.value)}
            >
              {t(`wf.designer.timer.presetNames.${p.id}`)}
            </Button>
          ))}
        </Space>
      </fieldset>
      {boundary && (
        <PanelField
          id={id('interrupting')}
          label={t('wf.designer.timer.interrupting')}
          help={t(interrupting ? 'wf.designer.timer.interruptingOn' : 'wf.designer.timer.interruptingOff')}
        >
          {(props) => (
            <Switch
              {...props}
              checked={interrupting}
              onChange={(checked) => modeling.updateProperties(element, { cancelActivity: checked })}
            />
          )}
        </PanelField>
      )}
    </>
  );
}
