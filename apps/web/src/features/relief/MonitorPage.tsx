/**
 * 防返贫监测: the monitored households' list (preventionPoverty) with both clocks of the identification
 * (the notice's days left, the township's fifteen-day deadline, overdue cases in red), the latest
 * per-capita income against the tenant's line, 发起识别 (starts the workflow with the village reviewer and
 * the township officer) and 消除风险 (a date and a reason); above it, the monitored households without a
 * measure in progress (GET preventionPoverty/without-measure).
 */
import './i18n';
import { preventionPovertyResource, RELIEF_STAGE } from '@smart/contracts/relief';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Input, Modal, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CrudContext, CrudPage, type Row } from '../../platform/crud/CrudPage';
import { formatMoney, numberText } from '../../platform/crud/values';
import { getData, postData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';
import { can, useSession } from '../../platform/session/session';
import { ApproverSelect, showFieldError } from '../work/process/StartForm';

const BASE = '/api/dfem-hope-manage/preventionPoverty';
const code = preventionPovertyResource.permission;

interface WithoutMeasure {
  id: string;
  householdNo: string;
  householderName: string;
  identifyDate: string | null;
}

function WithoutMeasureCard() {
  const { t } = useTranslation();
  const { data, isFetching } = useQuery({
    // under the resource's key: a saved household refreshes it
    queryKey: ['crud', preventionPovertyResource.key, 'without-measure'],
    queryFn: () => getData<WithoutMeasure[]>(`${BASE}/without-measure`),
    refetchOnMount: 'always',
  });
  return (
    <Card variant="borderless" title={t('relief.withoutTitle')}>
      <Table<WithoutMeasure>
        aria-label={t('relief.withoutTitle')}
        size="small"
        rowKey="id"
        loading={isFetching}
        dataSource={data ?? []}
        pagination={{ pageSize: 5, hideOnSinglePage: true }}
        locale={{ emptyText: t('relief.withoutEmpty') }}
        columns={[
          { title: t('relief.householdNo'), dataIndex: 'householdNo' },
          { title: t('relief.householder'), dataIndex: 'householderName' },
          { title: t('relief.identifiedOn'), dataIndex: 'identifyDate' },
        ]}
      />
    </Card>
  );
}

/** the township's deadline, the days left or how late, and the notice's days while it runs */
function Clocks({ row }: { row: Row }) {
  const { t } = useTranslation();
  const left = row.identifyDaysLeft as number | null;
  return (
    <span>
      <span>{String(row.identifyDeadline ?? '')} </span>
      {row.overdue ? (
        <Tag color="red">
          {left !== null && left !== undefined
            ? t('relief.overdueBy', { days: -left })
            : t('relief.lateIdentified')}
        </Tag>
      ) : left !== null && left !== undefined ? (
        <Tag color={left <= 3 ? 'orange' : 'blue'}>{t('relief.daysLeft', { days: left })}</Tag>
      ) : null}
      {row.noticeDaysLeft !== null && row.noticeDaysLeft !== undefined && (
        <Tag color="gold">{t('relief.noticeLeft', { days: row.noticeDaysLeft as number })}</Tag>
      )}
    </span>
  );
}

/** an amount as every amount reads (grouped, two decimals, 元) */
const AMOUNT = { type: 'money' } as const;

function Income({ row }: { row: Row }) {
  const { t } = useTranslation();
  if (row.perCapitaIncome === null || row.perCapitaIncome === undefined) return <>{t('relief.noIncome')}</>;
  const income = Number(row.perCapitaIncome);
  const line = row.incomeLine === null || row.incomeLine === undefined ? null : Number(row.incomeLine);
  return (
    <span>
      {numberText(AMOUNT, income, currentLanguage())} ({String(row.incomeYear)}){' '}
      {line !== null &&
        (income < line ? (
          <Tag color="red">{t('relief.belowLine', { line: formatMoney(line) })}</Tag>
        ) : (
          <Tag color="green">{t('relief.aboveLine', { line: formatMoney(line) })}</Tag>
        ))}
    </span>
  );
}

type Action = { kind: 'identify' | 'removeRisk'; row: Row; ctx: CrudContext };

function IdentifyDialog({ action, onClose }: { action: Action; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ taskUser: string; townshipUser: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      await postData(`${BASE}/identify`, { id: action.row.id, ...v });
      message.success(t('relief.identifyStarted'));
      onClose();
      await action.ctx.refresh();
    } catch (e) {
      showFieldError(form, ['taskUser', 'townshipUser'], e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open title={t('relief.identifyTitle')} onOk={submit} confirmLoading={saving} onCancel={onClose}>
      <Typography.Paragraph type="secondary">{t('relief.identifyHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          name="taskUser"
          label={t('relief.reviewer')}
          rules={[{ required: true, message: t('relief.pickUser') }]}
        >
          <ApproverSelect />
        </Form.Item>
        <Form.Item
          name="townshipUser"
          label={t('relief.townshipUser')}
          rules={[{ required: true, message: t('relief.pickUser') }]}
        >
          <ApproverSelect />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function RemoveRiskDialog({ action, onClose }: { action: Action; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ riskRemovedDate: Dayjs; riskRemovedReason: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      await postData(`${BASE}/remove-risk`, {
        id: action.row.id,
        riskRemovedDate: v.riskRemovedDate.format('YYYY-MM-DD'),
        riskRemovedReason: v.riskRemovedReason,
      });
      message.success(t('relief.riskRemovedDone'));
      onClose();
      await action.ctx.refresh();
    } catch (e) {
      showFieldError(form, ['riskRemovedDate', 'riskRemovedReason'], e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open title={t('relief.removeRiskTitle')} onOk={submit} confirmLoading={saving} onCancel={onClose}>
      <Form form={form} layout="vertical">
        <Form.Item
          name="riskRemovedDate"
          label={t('relief.removedDate')}
          rules={[{ required: true, message: t('relief.dateRequired') }]}
        >
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="riskRemovedReason"
          label={t('relief.removedReason')}
          rules={[{ required: true, whitespace: true, message: t('relief.reasonRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function MonitorPage() {
  const { t } = useTranslation();
  useSession((s) => s.permission); // re-render when grants change
  const [action, setAction] = useState<Action | null>(null);
  const close = () => setAction(null);
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <WithoutMeasureCard />
      <CrudPage
        def={preventionPovertyResource}
        columns={{
          extra: [
            {
              title: t('relief.deadline'),
              key: 'clocks',
              render: (_: unknown, row: Row) => <Clocks row={row} />,
            },
            {
              title: t('relief.income'),
              key: 'income',
              render: (_: unknown, row: Row) => <Income row={row} />,
            },
          ],
        }}
        rowActions={(row, ctx) => (
          <>
            {row.stage === RELIEF_STAGE.villageReview &&
              !row.processInstanceId &&
              can(`${code}_identify`) && (
                <Button type="link" size="small" onClick={() => setAction({ kind: 'identify', row, ctx })}>
                  {t('relief.identify')}
                </Button>
              )}
            {row.stage === RELIEF_STAGE.monitored && can(`${code}_remove_risk`) && (
              <Button type="link" size="small" onClick={() => setAction({ kind: 'removeRisk', row, ctx })}>
                {t('relief.removeRisk')}
              </Button>
            )}
          </>
        )}
      />
      {action?.kind === 'identify' && <IdentifyDialog action={action} onClose={close} />}
      {action?.kind === 'removeRisk' && <RemoveRiskDialog action={action} onClose={close} />}
    </div>
  );
}
