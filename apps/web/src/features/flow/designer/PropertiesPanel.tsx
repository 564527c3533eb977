// biome-ignore-all lint/suspicious/noTemplateCurlyInString: BPMN expressions are written ${…}, not template strings
/**
 * The designer's properties panel: name of any element; for a user task its assignee, candidate users
 * and candidate groups (camunda:assignee / camunda:candidateUsers / camunda:candidateGroups, roles by
 * alias) and whether several approvers share it (multi-instance); for a sequence flow leaving a gateway
 * its condition; for a gateway its default flow and the conditions of its outgoing flows; for a service,
 * send or business-rule task the action of the server's registry it runs and that action's fields
 * (camunda:type, camunda:field — ServiceTaskFields); for a timer event (boundary, intermediate catch,
 * start) its kind and ISO 8601 time, and for a boundary timer whether it interrupts (TimerFields); for a
 * call activity the process it calls and the variables passed in and out (camunda:in / camunda:out —
 * CallActivityFields). What an expanded call activity draws of the process it calls is shown read-only.
 * Expressions and times are checked as they are typed, by the engine's rules.
 */

import {
  checkExpression,
  checkList,
  type ExpressionError,
  RUNNABLE_BPMN_ELEMENTS,
} from '@smart/contracts/bpmn';
import { Alert, Button, Form, Input, Select, Typography } from 'antd';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type RoleOption, type UserOption, userLabel } from '../api';
import type { wfZh } from '../strings';
import { CallActivityFields } from './CallActivityFields';
import { type ControlProps, PanelField } from './PanelField';
import { ServiceTaskFields } from './ServiceTaskFields';
import { SERVICE_TASK_TYPES } from './service-task';
import { TimerFields, timerDefinitionOf } from './TimerFields';
import { type DiagramElement, ELEMENT_TYPE_KEYS, type ModelerLike } from './types';

const GATEWAYS = ['bpmn:ExclusiveGateway', 'bpmn:InclusiveGateway'];
/** what the server's engine runs; anything else is refused at deployment */
const RUNNABLE = new Set(RUNNABLE_BPMN_ELEMENTS);
const TASK_TYPES: Record<string, keyof typeof wfZh.designer.types> = {
  'bpmn:Process': 'process',
  'bpmn:Collaboration': 'process',
  ...ELEMENT_TYPE_KEYS,
};
/** the events whose timer the engine runs */
const TIMER_EVENTS = ['bpmn:BoundaryEvent', 'bpmn:IntermediateCatchEvent', 'bpmn:StartEvent'];

/** The element the panel shows: the selected one (a label stands for its element), else the process. */
function useCurrentElement(modeler: ModelerLike) {
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
    bus.on('import.done', onChanged);
    return () => {
      bus.off('selection.changed', onSelection);
      bus.off('elements.changed', onChanged);
      bus.off('import.done', onChanged);
    };
  }, [modeler]);
  let root: DiagramElement | null = null;
  try {
    root = modeler.get('canvas').getRootElement();
  } catch {
    root = null;
  }
  return selected ?? root;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function splitList(v: unknown): string[] {
  return str(v)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * How a user task is shared among several approvers: not at all, all must approve (会签), any one (或签),
 * or at least half of them — each a completion condition over the loop's counts.
 */
const COUNTERSIGN = ['none', 'all', 'any', 'half'] as const;
const COMPLETION: Partial<Record<(typeof COUNTERSIGN)[number], string>> = {
  any: '${nrOfCompletedInstances >= 1}',
  half: '${nrOfCompletedInstances * 2 >= nrOfInstances}',
};
type Countersign = (typeof COUNTERSIGN)[number];
/** the list of approvers a countersign reads, and the variable each instance's approver is in */
const APPROVERS = '${approvers}';
const APPROVER = 'approver';

type LoopBo = { $type: string; get(name: string): unknown; completionCondition?: { body?: string } };

function countersignOf(bo: DiagramElement['businessObject']): Countersign {
  const loop = (bo as { loopCharacteristics?: LoopBo }).loopCharacteristics;
  if (loop?.$type !== 'bpmn:MultiInstanceLoopCharacteristics') return 'none';
  const body = loop.completionCondition?.body?.trim();
  if (!body) return 'all';
  return (Object.keys(COMPLETION) as Countersign[]).find((k) => COMPLETION[k] === body) ?? 'any';
}

/**
 * Makes the task a parallel multi-instance over `${approvers}` (one instance per approver, who is
 * `${approver}` in it): all must approve, the first approval or half of them complete it; or a single
 * task again.
 */
function setCountersign(modeler: ModelerLike, element: DiagramElement, kind: Countersign) {
  const modeling = modeler.get('modeling');
  if (kind === 'none') {
    modeling.updateProperties(element, { loopCharacteristics: undefined });
    return;
  }
  const moddle = modeler.get('moddle');
  const loop = moddle.create('bpmn:MultiInstanceLoopCharacteristics', {
    isSequential: false,
    'camunda:collection': APPROVERS,
    'camunda:elementVariable': APPROVER,
    ...(COMPLETION[kind]
      ? { completionCondition: moddle.create('bpmn:FormalExpression', { body: COMPLETION[kind] }) }
      : {}),
  });
  modeling.updateProperties(element, { loopCharacteristics: loop, 'camunda:assignee': `\${${APPROVER}}` });
}

export function PropertiesPanel({
  modeler,
  processKey,
  processName,
  users,
  roles,
}: {
  modeler: ModelerLike;
  processKey: string;
  processName: string;
  users: UserOption[];
  roles: RoleOption[];
}) {
  const { t } = useTranslation();
  const element = useCurrentElement(modeler);
  const modeling = modeler.get('modeling');
  const baseId = useId();
  if (!element) return null;
  const bo = element.businessObject;
  const kind = TASK_TYPES[bo.$type];
  const typeName = kind ? t(`wf.designer.types.${kind}`) : bo.$type.replace('bpmn:', '');
  const isRoot = bo.$type === 'bpmn:Process' || bo.$type === 'bpmn:Collaboration';
  // what an expanded call activity draws of the process it calls is shown, never edited here
  const drawn = modeler.get('calledContent').isDrawn(element);
  const timer = timerDefinitionOf(element);
  const exprMessage = (e: ExpressionError | null) =>
    e ? t(`wf.designer.expr.${e.kind}`, { token: 'token' in e ? e.token : '' }) : undefined;

  const field = (
    key: string,
    label: string,
    control: (props: ControlProps) => ReactNode,
    help?: ReactNode,
    error?: string,
  ) => {
    const id = `${baseId}-${key}`;
    return (
      <PanelField id={id} label={label} help={help} error={error}>
        {control}
      </PanelField>
    );
  };

  const expressionOptions = [
    { value: '${taskUser}', label: `\${taskUser} · ${t('wf.designer.taskUserExpr')}` },
    { value: '${applyUser}', label: `\${applyUser} · ${t('wf.designer.applyUserExpr')}` },
  ];
  const userOptions = [...expressionOptions, ...users.map((u) => ({ value: u.id, label: userLabel(u) }))];
  const roleOptions = roles.map((r) => ({ value: r.roleAlias, label: `${r.roleName} (${r.roleAlias})` }));

  // a no-op update would redraw the element under a click that blurred the field, and lose the click
  const setAttr = (name: string, value: string) => {
    if (str(bo.get(name)) !== value)
      modeling.updateProperties(element, { [name]: value ? value : undefined });
  };

  const conditionInput = (flow: DiagramElement, key: string, label: string) => {
    const body = flow.businessObject.conditionExpression?.body ?? '';
    const error = body.trim() ? exprMessage(checkExpression(body)) : undefined;
    return field(
      key,
      label,
      (p) => (
        <Input
          {...p}
          value={body}
          placeholder="${flag == 'ok'}"
          onChange={(e) => {
            const text = e.target.value;
            const expr = text.trim()
              ? modeler.get('moddle').create('bpmn:FormalExpression', { body: text })
              : undefined;
            modeling.updateProperties(flow, { conditionExpression: expr });
          }}
        />
      ),
      undefined,
      error,
    );
  };

  const flowLabel = (flow: DiagramElement) =>
    flow.businessObject.name || flow.target?.businessObject.name || flow.target?.id || flow.id;

  let specific: ReactNode = null;
  if (isRoot) {
    specific = (
      <>
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t('wf.designer.processHint')}
        </Typography.Paragraph>
        <dl style={{ margin: 0 }}>
          <dt style={{ color: '#909399' }}>{t('wf.designer.processKey')}</dt>
          <dd style={{ margin: '0 0 8px' }}>{processKey || '—'}</dd>
          <dt style={{ color: '#909399' }}>{t('wf.designer.processName')}</dt>
          <dd style={{ margin: 0 }}>{processName || '—'}</dd>
        </dl>
      </>
    );
  } else if (bo.$type === 'bpmn:UserTask') {
    const assignee = str(bo.get('camunda:assignee'));
    const candidateUsers = str(bo.get('camunda:candidateUsers'));
    const candidateGroups = str(bo.get('camunda:candidateGroups'));
    specific = (
      <>
        {field(
          'assignee',
          t('wf.designer.assignee'),
          (p) => (
            <Select
              {...p}
              mode="tags"
              showSearch
              optionFilterProp="label"
              value={assignee ? [assignee] : []}
              options={userOptions}
              placeholder={t('wf.designer.assigneePlaceholder')}
              onChange={(v: string[]) => setAttr('camunda:assignee', v[v.length - 1] ?? '')}
            />
          ),
          t('wf.designer.assigneeHelp'),
          assignee ? exprMessage(checkList(assignee)) : undefined,
        )}
        {field(
          'candidateUsers',
          t('wf.designer.candidateUsers'),
          (p) => (
            <Select
              {...p}
              mode="tags"
              showSearch
              optionFilterProp="label"
              value={splitList(candidateUsers)}
              options={userOptions}
              placeholder={t('wf.designer.candidateUsersPlaceholder')}
              onChange={(v: string[]) => setAttr('camunda:candidateUsers', v.join(','))}
            />
          ),
          undefined,
          candidateUsers ? exprMessage(checkList(candidateUsers)) : undefined,
        )}
        {field(
          'candidateGroups',
          t('wf.designer.candidateGroups'),
          (p) => (
            <Select
              {...p}
              mode="tags"
              showSearch
              optionFilterProp="label"
              value={splitList(candidateGroups)}
              options={roleOptions}
              placeholder={t('wf.designer.candidateGroupsPlaceholder')}
              onChange={(v: string[]) => setAttr('camunda:candidateGroups', v.join(','))}
            />
          ),
          t('wf.designer.candidatesHelp'),
          candidateGroups ? exprMessage(checkList(candidateGroups)) : undefined,
        )}
        {field(
          'countersign',
          t('wf.designer.countersign'),
          (p) => (
            <Select
              {...p}
              value={countersignOf(bo)}
              options={COUNTERSIGN.map((kind) => ({
                value: kind,
                label: t(`wf.designer.countersignKinds.${kind}`),
              }))}
              onChange={(kind: Countersign) => setCountersign(modeler, element, kind)}
            />
          ),
          countersignOf(bo) === 'none' ? undefined : t('wf.designer.countersignHelp'),
        )}
      </>
    );
  } else if (bo.$type === 'bpmn:Task') {
    specific = (
      <>
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t('wf.designer.plainTaskHint')}
        </Typography.Paragraph>
        <Button
          onClick={() => {
            const replaced = modeler.get('bpmnReplace').replaceElement(element, { type: 'bpmn:UserTask' });
            modeler.get('selection').select(replaced);
          }}
        >
          {t('wf.designer.toUserTask')}
        </Button>
      </>
    );
  } else if (bo.$type === 'bpmn:SequenceFlow') {
    const source = element.source;
    const fromGateway = !!source && GATEWAYS.includes(source.businessObject.$type);
    const isDefault = !!source && source.businessObject.default === bo;
    specific = fromGateway ? (
      isDefault ? (
        <Typography.Paragraph type="secondary">{t('wf.designer.isDefaultFlow')}</Typography.Paragraph>
      ) : (
        <>
          {conditionInput(element, 'condition', t('wf.designer.condition'))}
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
            {t('wf.designer.conditionHelp')}
          </Typography.Paragraph>
        </>
      )
    ) : (
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('wf.designer.noConditionHere')}
      </Typography.Paragraph>
    );
  } else if (GATEWAYS.includes(bo.$type)) {
    const outgoing = (element.outgoing ?? []).filter((f) => f.type === 'bpmn:SequenceFlow');
    specific = (
      <>
        {field('default', t('wf.designer.defaultFlow'), (p) => (
          <Select
            {...p}
            allowClear
            value={bo.default?.id}
            placeholder={t('wf.designer.noDefaultFlow')}
            options={outgoing.map((f) => ({ value: f.id, label: flowLabel(f) }))}
            onChange={(v?: string) => {
              const flow = outgoing.find((f) => f.id === v);
              modeling.updateProperties(element, { default: flow ? flow.businessObject : undefined });
            }}
          />
        ))}
        {outgoing.length === 0 && (
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
            {t('wf.designer.noOutgoing')}
          </Typography.Paragraph>
        )}
        {outgoing
          .filter((f) => bo.default !== f.businessObject)
          .map((f) =>
            conditionInput(f, `cond-${f.id}`, t('wf.designer.conditionTo', { name: flowLabel(f) })),
          )}
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t('wf.designer.conditionHelp')}
        </Typography.Paragraph>
      </>
    );
  } else if (bo.$type === 'bpmn:ParallelGateway') {
    specific = (
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('wf.designer.parallelHint')}
      </Typography.Paragraph>
    );
  } else if (SERVICE_TASK_TYPES.includes(bo.$type)) {
    specific = (
      <ServiceTaskFields modeler={modeler} element={element} baseId={baseId} userOptions={userOptions} />
    );
  } else if (bo.$type === 'bpmn:CallActivity') {
    specific = (
      <CallActivityFields
        modeler={modeler}
        element={element}
        baseId={baseId}
        expanded={!!(element as { di?: { isExpanded?: boolean } }).di?.isExpanded}
      />
    );
  } else if (TIMER_EVENTS.includes(bo.$type) && timer) {
    specific = <TimerFields modeler={modeler} element={element} definition={timer} baseId={baseId} />;
  }
  if (drawn)
    specific = (
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('wf.designer.drawn', { name: modeler.get('calledContent').processName(element) })}
      </Typography.Paragraph>
    );

  return (
    <aside
      aria-label={t('wf.designer.panel')}
      style={{
        width: 320,
        flex: '0 0 320px',
        borderLeft: '1px solid #f0f0f0',
        padding: 12,
        overflow: 'auto',
      }}
    >
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {typeName}
      </Typography.Title>
      <Form layout="vertical" component="div">
        {!isRoot && (
          <>
            {field('id', t('wf.designer.elementId'), (p) => (
              <Input {...p} value={bo.id} readOnly variant="filled" />
            ))}
            {field('name', t('wf.designer.elementName'), (p) => (
              <Input
                {...p}
                value={bo.name ?? ''}
                readOnly={drawn}
                variant={drawn ? 'filled' : undefined}
                onChange={(e) => modeling.updateLabel(element, e.target.value || null)}
              />
            ))}
          </>
        )}
        {specific}
      </Form>
      {!isRoot && !drawn && !RUNNABLE.has(bo.$type) && (
        <Alert type="warning" showIcon title={t('wf.designer.notRunnable')} style={{ marginTop: 8 }} />
      )}
    </aside>
  );
}
