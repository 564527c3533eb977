/**
 * /work/process/leave/form/:processDefinitionId — 请假申请: the approver (a user of the tenant), start and
 * end (the end not before the start), the reason; 提交 starts the process (leave/start-process) and goes to
 * 已发事务.
 */
import '../i18n';
import { SendOutlined } from '@ant-design/icons';
import type { Page } from '@smart/contracts';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Form, Input, Select, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getData, HttpError, postData } from '../../../platform/http/client';
import { FLOW_API, LEAVE_API, userLabel, useTenantUsers } from '../../flow/api';
import { LEAVE_PATTERNS } from '../routes';
import { endBeforeStart, LEAVE_TIME_FORMAT } from './leave';
import { useLeavePage, usePatternParams } from './parts';

interface Values {
  taskUser: string;
  startTime: Dayjs;
  endTime: Dayjs;
  reason: string;
}

const FIELDS = ['taskUser', 'startTime', 'endTime', 'reason'] as const;

export default function LeaveFormPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { processDefinitionId } = usePatternParams<'processDefinitionId'>(LEAVE_PATTERNS.form);
  const users = useTenantUsers();
  // the process's name, from what the user may start (the path carries only its id)
  const startable = useQuery({
    queryKey: ['flow-startable'],
    queryFn: () =>
      getData<
        Page<{ processDefinitionId: string; processDefinitionName: string; processDefinitionVersion: number }>
      >(`${FLOW_API}/work/start-list`, { current: 1, size: 200 }),
    staleTime: 60_000,
  });
  const definition = startable.data?.records.find((r) => r.processDefinitionId === processDefinitionId);
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const leavePage = useLeavePage();

  const submit = async (v: Values) => {
    setBusy(true);
    try {
      await postData(`${LEAVE_API}/start-process`, {
        processDefinitionId,
        taskUser: v.taskUser,
        startTime: v.startTime.format(LEAVE_TIME_FORMAT),
        endTime: v.endTime.format(LEAVE_TIME_FORMAT),
        reason: v.reason.trim(),
      });
      message.success(t('work.leave.started'));
      leavePage('/work/send/index');
    } catch (e) {
      const field =
        e instanceof HttpError ? (e.body as { data?: { field?: string } })?.data?.field : undefined;
      if (field && (FIELDS as readonly string[]).includes(field))
        form.setFields([{ name: field as (typeof FIELDS)[number], errors: [(e as Error).message] }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      variant="borderless"
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('work.leave.formTitle')}</h2>}
      style={{ maxWidth: 760 }}
    >
      <Typography.Paragraph type="secondary">
        {t('work.leave.process')}:{' '}
        {definition
          ? `${definition.processDefinitionName} v${definition.processDefinitionVersion}`
          : processDefinitionId}
      </Typography.Paragraph>
      <Form<Values>
        form={form}
        name="leaveForm"
        layout="vertical"
        onFinish={submit}
        aria-label={t('work.leave.formTitle')}
        disabled={busy}
      >
        <Form.Item
          name="taskUser"
          label={t('work.leave.approver')}
          rules={[{ required: true, message: t('work.leave.approverRequired') }]}
        >
          <Select
            showSearch
            optionFilterProp="label"
            loading={users.isLoading}
            placeholder={t('work.leave.approverPlaceholder')}
            options={(users.data ?? []).map((u) => ({ value: u.id, label: userLabel(u) }))}
          />
        </Form.Item>
        <Space size={16} wrap align="start">
          <Form.Item
            name="startTime"
            label={t('work.leave.startTime')}
            rules={[{ required: true, message: t('work.leave.startRequired') }]}
          >
            <DatePicker showTime format={LEAVE_TIME_FORMAT} style={{ width: 230 }} />
          </Form.Item>
          <Form.Item
            name="endTime"
            label={t('work.leave.endTime')}
            dependencies={['startTime']}
            rules={[
              { required: true, message: t('work.leave.endRequired') },
              ({ getFieldValue }) => ({
                validator: async (_, end?: Dayjs) => {
                  const start = getFieldValue('startTime') as Dayjs | undefined;
                  if (endBeforeStart(start?.format(LEAVE_TIME_FORMAT), end?.format(LEAVE_TIME_FORMAT)))
                    throw new Error(t('work.leave.endBeforeStart'));
                },
              }),
            ]}
          >
            <DatePicker showTime format={LEAVE_TIME_FORMAT} style={{ width: 230 }} />
          </Form.Item>
        </Space>
        <Form.Item
          name="reason"
          label={t('work.leave.reason')}
          rules={[
            { required: true, whitespace: true, message: t('work.leave.reasonRequired') },
            { max: 1000, message: t('wf.maxLength', { max: 1000 }) },
          ]}
        >
          <Input.TextArea rows={4} showCount maxLength={1000} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={busy}>
              {t('work.leave.submit')}
            </Button>
            <Button htmlType="button" onClick={() => form.resetFields()}>
              {t('wf.reset')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
