/**
 * /work/process/leave/form/:processDefinitionId — 请假申请: the approver (a user of the tenant), start and
 * end (the end not before the start), the reason; 提交 starts the process (leave/start-process) and goes to
 * 已发事务.
 */
import '../i18n';
import { DatePicker, Form, Input, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { LEAVE_API } from '../../flow/api';
import { usePatternParams } from '../process/params';
import { ApproverSelect, StartForm } from '../process/StartForm';
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
  const { processDefinitionId } = usePatternParams<'processDefinitionId'>(LEAVE_PATTERNS.form);
  const [form] = Form.useForm<Values>();

  return (
    <StartForm<Values>
      title={t('work.leave.formTitle')}
      name="leaveForm"
      processDefinitionId={processDefinitionId}
      form={form}
      fields={FIELDS}
      url={`${LEAVE_API}/start-process`}
      toBody={(v) => ({
        taskUser: v.taskUser,
        startTime: v.startTime.format(LEAVE_TIME_FORMAT),
        endTime: v.endTime.format(LEAVE_TIME_FORMAT),
        reason: v.reason.trim(),
      })}
      started={t('work.leave.started')}
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
    </StartForm>
  );
}
