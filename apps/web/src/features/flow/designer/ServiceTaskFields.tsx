/**
 * The panel's part for a service, send or business-rule task: the action it runs (the server's registry:
 * 发送通知 / 设置变量 / 调用 HTTP 接口) and the fields that action reads, checked as they are typed.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type ControlProps, PanelField, useProblemText } from './PanelField';
import {
  ACTION_NAMES,
  type ActionName,
  actionOf,
  actionUpdate,
  checkRecipients,
  checkResultVariable,
  checkUrl,
  checkValue,
  checkVariables,
  type FieldRow,
  fieldOf,
  fieldsUpdate,
  HTTP_METHODS,
  type ServiceTaskBo,
  withField,
} from './service-task';
import type { DiagramElement, ModelerLike } from './types';

const splitList = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function ServiceTaskFields({
  modeler,
  element,
  baseId,
  userOptions,
}: {
  modeler: ModelerLike;
  element: DiagramElement;
  baseId: string;
  userOptions: { value: string; label: string }[];
}) {
  const { t } = useTranslation();
  const problemText = useProblemText();
  const modeling = modeler.get('modeling');
  const moddle = modeler.get('moddle');
  const bo = element.businessObject as unknown as ServiceTaskBo;
  const { action, fields } = actionOf(bo);
  const known = (ACTION_NAMES as readonly string[]).includes(action ?? '')
    ? (action as ActionName)
    : undefined;
  const id = (key: string) => `${baseId}-${key}`;

  const setFields = (next: FieldRow[]) => modeling.updateProperties(element, fieldsUpdate(moddle, bo, next));
  // a no-op update would redraw the element under a click that blurred the field, and lose the click
  const set = (name: string, value: string) => {
    if (fieldOf(fields, name) !== value) setFields(withField(fields, name, value));
  };
  const text = (name: string, placeholder?: string) => (props: ControlProps) => (
    <Input
      {...props}
      value={fieldOf(fields, name)}
      placeholder={placeholder}
      onChange={(e) => set(name, e.target.value)}
    />
  );

  const actionError = !action
    ? t('wf.designer.action.missing')
    : !known
      ? t('wf.designer.action.unknown', { name: action })
      : undefined;

  let specific = null;
  if (known === 'notice') {
    const to = fieldOf(fields, 'to');
    specific = (
      <>
        <PanelField
          id={id('to')}
          label={t('wf.designer.action.to')}
          help={t('wf.designer.action.toHelp')}
          error={problemText(checkRecipients(to))}
        >
          {(props) => (
            <Select
              {...props}
              mode="tags"
              showSearch
              optionFilterProp="label"
              value={splitList(to)}
              options={userOptions}
              placeholder={t('wf.designer.action.toPlaceholder')}
              onChange={(v: string[]) => set('to', v.join(','))}
            />
          )}
        </PanelField>
        <PanelField
          id={id('title')}
          label={t('wf.designer.action.title')}
          help={t('wf.designer.action.titleHelp')}
          error={problemText(checkValue(fieldOf(fields, 'title')))}
        >
          {text('title', element.businessObject.name)}
        </PanelField>
      </>
    );
  } else if (known === 'http') {
    specific = (
      <>
        <PanelField
          id={id('url')}
          label={t('wf.designer.action.url')}
          error={problemText(checkUrl(fieldOf(fields, 'url')))}
        >
          {text('url', 'https://')}
        </PanelField>
        <PanelField id={id('method')} label={t('wf.designer.action.method')}>
          {(props) => (
            <Select
              {...props}
              value={fieldOf(fields, 'method').toUpperCase() === 'GET' ? 'GET' : 'POST'}
              options={HTTP_METHODS.map((m) => ({ value: m, label: m }))}
              onChange={(v: string) => set('method', v)}
            />
          )}
        </PanelField>
        <PanelField
          id={id('body')}
          label={t('wf.designer.action.body')}
          help={t('wf.designer.action.bodyHelp')}
          error={problemText(checkValue(fieldOf(fields, 'body')))}
        >
          {(props) => (
            <Input.TextArea
              {...props}
              autoSize={{ minRows: 2, maxRows: 6 }}
              value={fieldOf(fields, 'body')}
              placeholder="${payload}"
              onChange={(e) => set('body', e.target.value)}
            />
          )}
        </PanelField>
        <PanelField
          id={id('resultVariable')}
          label={t('wf.designer.action.resultVariable')}
          help={t('wf.designer.action.resultVariableHelp')}
          error={problemText(checkResultVariable(fieldOf(fields, 'resultVariable')))}
        >
          {text('resultVariable', 'httpStatus')}
        </PanelField>
      </>
    );
  } else if (known === 'variables') {
    const problems = checkVariables(fields);
    const update = (i: number, row: Partial<FieldRow>) =>
      setFields(fields.map((f, j) => (j === i ? { ...f, ...row } : f)));
    specific = (
      <fieldset style={{ border: 0, margin: 0, padding: 0 }}>
        <legend style={{ fontSize: 14, marginBottom: 8 }}>{t('wf.designer.action.variables')}</legend>
        {fields.length === 0 && (
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
            {t('wf.designer.action.noVariables')}
          </Typography.Paragraph>
        )}
        {fields.map((row, i) => {
          const n = i + 1;
          const error = problemText(problems[i].name) ?? problemText(problems[i].value);
          const helpId = id(`var-${i}-help`);
          return (
            <Form.Item
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
              key={i}
              validateStatus={error ? 'error' : undefined}
              help={error ? <span id={helpId}>{error}</span> : undefined}
              style={{ marginBottom: 8 }}
            >
              <div style={{ display: 'flex', gap: 4 }}>
                <Input
                  aria-label={t('wf.designer.action.variableNameOf', { n })}
                  aria-invalid={problems[i].name ? true : undefined}
                  aria-describedby={error ? helpId : undefined}
                  placeholder={t('wf.designer.action.variableName')}
                  value={row.name}
                  onChange={(e) => update(i, { name: e.target.value })}
                />
                <Input
                  aria-label={t('wf.designer.action.variableValueOf', { n })}
                  aria-invalid={problems[i].value ? true : undefined}
                  aria-describedby={error ? helpId : undefined}
                  placeholder={t('wf.designer.action.variableValue')}
                  value={row.value}
                  onChange={(e) => update(i, { value: e.target.value })}
                />
                <Button
                  aria-label={t('wf.designer.action.removeVariable', { n })}
                  icon={<DeleteOutlined />}
                  onClick={() => setFields(fields.filter((_, j) => j !== i))}
                />
              </div>
            </Form.Item>
          );
        })}
        <Button
          icon={<PlusOutlined />}
          onClick={() => setFields([...fields, { name: '', value: '' }])}
          style={{ marginBottom: 8 }}
        >
          {t('wf.designer.action.addVariable')}
        </Button>
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t('wf.designer.action.variablesHelp')}
        </Typography.Paragraph>
      </fieldset>
    );
  }

  return (
    <>
      <PanelField
        id={id('action')}
        label={t('wf.designer.action.label')}
        help={known ? t(`wf.designer.action.hints.${known}`) : undefined}
        error={actionError}
      >
        {(props) => (
          <Select
            {...props}
            value={(action || undefined) as ActionName | undefined}
            placeholder={t('wf.designer.action.placeholder')}
            options={ACTION_NAMES.map((name) => ({
              value: name,
              label: t(`wf.designer.action.names.${name}`),
            }))}
            onChange={(next: ActionName) => {
              if (next !== action) modeling.updateProperties(element, actionUpdate(moddle, bo, next));
            }}
          />
        )}
      </PanelField>
      {specific}
    </>
  );
}
