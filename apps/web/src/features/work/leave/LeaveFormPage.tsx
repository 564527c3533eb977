/**
 * /work/process/leave/form/:processDefinitionId — 请假申请: the approver (a user of the tenant), start and
 * end (the end not before the start), the reason; 提交 starts the process (leave/start-process) and goes to
 * 已发事务.
 */
import '../i18n';
import { SendOutlined } from '@ant-design/icons';
import { App, Button, Card, DatePicker, Form, Input, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { postData } from '../../../platform/http/client';
import { LEAVE_API } from '../../flow/api';
import { ApproverSelect, ProcessLine, showFieldError, useLeavePage, usePatternParams } from '../parts';
import { LEAVE_PATTERNS } from '../routes';
import { endBeforeStart, LEAVE_TIME_FORMAT } from './leave';

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
      showFieldError(form, FIELDS, e);
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
        <ProcessLine processDefinitionId={processDefinitionId} />
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
          label={t('work.approver')}
          rules={[{ required: true, message: t('work.approverRequired') }]}
        >
          <ApproverSelect />
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
              {t('work.submit')}
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
