/**
 * 种植计划: the plans' list (the generic page, saving through the family's `upsert`) with each plan's steps
 * edited in its dialog — operation, what, planned day, done day — sent with the plan, as the family's client
 * sends them. A step past its planned day and not done is flagged red (the server's `overdue`); a step a
 * farming record did shows that it is done.
 */
import './i18n';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { planResource, stepOverdue } from '@smart/contracts/agriculture';
import { Button, DatePicker, Input, Select, Space, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { CrudPage, type FieldOverride, type Row } from '../../platform/crud/CrudPage';
import { useDict } from '../../platform/crud/dict';
import type { FieldControlProps } from '../../platform/crud/types';

interface Step {
  id?: string;
  operation?: string;
  content?: string | null;
  plannedDate?: string | null;
  doneDate?: string | null;
  recordId?: string | null;
  overdue?: boolean;
}

const stepsOf = (v: unknown): Step[] => {
  try {
    const s = typeof v === 'string' ? (v.trim() ? JSON.parse(v) : []) : v;
    return Array.isArray(s) ? (s as Step[]) : [];
  } catch {
    return [];
  }
};
const today = () => dayjs().format('YYYY-MM-DD');

/** The steps of a plan, one row each; the form holds them as their JSON text. */
function StepsEditor({ value, onChange, id, disabled }: FieldControlProps) {
  const { t } = useTranslation();
  const operations = useDict('agri_operation');
  const steps = stepsOf(value);
  const set = (next: Step[]) =>
    onChange?.(
      JSON.stringify(
        next.map(({ id: stepId, operation, content, plannedDate, doneDate }) => ({
          ...(stepId ? { id: stepId } : {}),
          operation,
          content: content ?? '',
          plannedDate: plannedDate ?? '',
          doneDate: doneDate ?? '',
        })),
      ),
    );
  const change = (i: number, patch: Partial<Step>) =>
    set(steps.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const options = (operations.data ?? []).map((d) => ({ value: d.dictKey, label: d.dictValue }));
  return (
    <fieldset
      id={id}
      aria-label={t('agriculture.steps')}
      style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}
    >
      {!steps.length && <Typography.Text type="secondary">{t('agriculture.noSteps')}</Typography.Text>}
      {steps.map((s, i) => {
        const n = i + 1;
        const label = (field: string) => `${t('agriculture.stepN', { n })} ${field}`;
        const overdue = stepOverdue(s, today());
        return (
          // a step has no id until it is saved: its place is its key
          // biome-ignore lint/suspicious/noArrayIndexKey: steps are edited in place, by position
          <Space key={i} wrap style={{ display: 'flex', marginBottom: 8 }} data-testid={`step-${n}`}>
            <Typography.Text style={{ width: 52, display: 'inline-block' }}>
              {t('agriculture.stepN', { n })}
            </Typography.Text>
            <Select
              aria-label={label(t('agriculture.operation'))}
              style={{ width: 110 }}
              options={options}
              value={s.operation}
              disabled={disabled}
              onChange={(v) => change(i, { operation: v })}
            />
            <Input
              aria-label={label(t('agriculture.content'))}
              placeholder={t('agriculture.content')}
              style={{ width: 150 }}
              maxLength={100}
              value={s.content ?? ''}
              disabled={disabled}
              onChange={(e) => change(i, { content: e.target.value })}
            />
            <DatePicker
              aria-label={label(t('agriculture.plannedDate'))}
              placeholder={t('agriculture.plannedDate')}
              value={s.plannedDate ? dayjs(s.plannedDate) : null}
              disabled={disabled}
              onChange={(d) => change(i, { plannedDate: d ? d.format('YYYY-MM-DD') : null })}
            />
            <DatePicker
              aria-label={label(t('agriculture.doneDate'))}
              placeholder={t('agriculture.doneDate')}
              value={s.doneDate ? dayjs(s.doneDate) : null}
              disabled={disabled}
              onChange={(d) => change(i, { doneDate: d ? d.format('YYYY-MM-DD') : null })}
            />
            {overdue && <Tag color="red">{t('agriculture.overdue')}</Tag>}
            {s.recordId && <Tag color="green">{t('agriculture.byRecord')}</Tag>}
            <Button
              aria-label={t('agriculture.removeStep', { n })}
              icon={<DeleteOutlined />}
              disabled={disabled}
              onClick={() => set(steps.filter((_, j) => j !== i))}
            />
          </Space>
        );
      })}
      <Button
        icon={<PlusOutlined />}
        disabled={disabled}
        onClick={() => set([...steps, { operation: undefined, plannedDate: null }])}
      >
        {t('agriculture.addStep')}
      </Button>
    </fieldset>
  );
}

/** A plan's steps in its row: how many are done, and the overdue ones in red. */
function StepsCell({ row }: { row: Row }) {
  const { t } = useTranslation();
  const steps = stepsOf(row.steps);
  const done = steps.filter((s) => s.doneDate).length;
  const overdue = steps.filter((s) => s.overdue).length;
  return (
    <Space size={4}>
      <span>
        {done}/{steps.length}
      </span>
      {overdue > 0 && <Tag color="red">{t('agriculture.overdueSteps', { count: overdue })}</Tag>}
    </Space>
  );
}

/** The steps as the view dialog reads them: one line each. */
function StepsView({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const operations = useDict('agri_operation');
  const name = (key?: string) => operations.data?.find((d) => d.dictKey === key)?.dictValue ?? key ?? '';
  const steps = stepsOf(value);
  if (!steps.length) return <>{t('agriculture.noSteps')}</>;
  return (
    <ol style={{ margin: 0, paddingLeft: 20 }}>
      {steps.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: read-only, in the plan's order
        <li key={i}>
          {s.plannedDate} · {name(s.operation)}
          {s.content ? ` · ${s.content}` : ''}{' '}
          {s.doneDate ? (
            <Tag color="blue">{t('agriculture.done', { date: s.doneDate })}</Tag>
          ) : s.overdue ? (
            <Tag color="red">{t('agriculture.overdue')}</Tag>
          ) : (
            <Tag>{t('agriculture.pending')}</Tag>
          )}
        </li>
      ))}
    </ol>
  );
}

const fields: Record<string, FieldOverride> = {
  steps: { control: (p) => <StepsEditor {...p} />, view: (v) => <StepsView value={v} /> },
};

export default function PlanPage() {
  const { t } = useTranslation();
  return (
    <CrudPage
      def={planResource}
      submitPath="upsert"
      fields={fields}
      columns={{
        extra: [
          {
            key: 'steps',
            title: t('agriculture.steps'),
            render: (_v: unknown, row: Row) => <StepsCell row={row} />,
          },
        ],
      }}
    />
  );
}
