/**
 * 种植计划: the plans' list (the generic page, saving through the family's `upsert`). Its steps are the
 * plan's children, edited in its dialog by the generic child table; this screen adds only what a step says
 * beside its controls — flagged red past its planned day and not done (the server's `overdue`), done by a
 * farming record — and the list's done / total with the overdue count.
 */
import './i18n';
import { planResource } from '@smart/contracts/agriculture';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';

const stepsOf = (row: Row) => (Array.isArray(row.steps) ? (row.steps as Row[]) : []);

/** A step's marks beside its controls: overdue, or done by a record. */
function StepMarks({ step }: { step: Row }) {
  const { t } = useTranslation();
  return (
    <>
      {step.overdue === true && <Tag color="red">{t('agriculture.overdue')}</Tag>}
      {!!step.recordId && <Tag color="green">{t('agriculture.byRecord')}</Tag>}
    </>
  );
}

/** A plan's steps in its row: how many are done, and the overdue ones in red. */
function StepsCell({ row }: { row: Row }) {
  const { t } = useTranslation();
  const steps = stepsOf(row);
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

const childTables = { steps: { rowExtra: (step: Row) => <StepMarks step={step} /> } };

export default function PlanPage() {
  const { t } = useTranslation();
  return (
    <CrudPage
      def={planResource}
      submitPath="upsert"
      childTables={childTables}
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
