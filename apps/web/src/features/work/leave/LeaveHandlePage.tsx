/**
 * /work/process/leave/handle/:taskId/:processInstanceId/:businessId — 请假审批: the request, its timeline,
 * a required comment, 同意 (flag ok) or 驳回 (no flag) through work/complete-task; then back to 待办事务.
 */
import '../i18n';
import { ApartmentOutlined, CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { App, Button, Card, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { postData } from '../../../platform/http/client';
import { FLOW_API } from '../../flow/api';
import { useFlowDiagram } from '../../flow/diagram';
import { useRefreshFlowLists } from '../../flow/PagedList';
import { LEAVE_PATTERNS } from '../routes';
import { HistoryTimeline, LeaveRecord, useLeavePage, usePatternParams } from './parts';

export default function LeaveHandlePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { taskId, processInstanceId, businessId } = usePatternParams<
    'taskId' | 'processInstanceId' | 'businessId'
  >(LEAVE_PATTERNS.handle);
  const [form] = Form.useForm<{ comment: string }>();
  const [busy, setBusy] = useState<'ok' | 'reject' | null>(null);
  const refresh = useRefreshFlowLists();
  const leavePage = useLeavePage();
  const diagram = useFlowDiagram();

  const complete = async (decision: 'ok' | 'reject') => {
    let comment: string;
    try {
      ({ comment } = await form.validateFields());
    } catch {
      return;
    }
    setBusy(decision);
    try {
      await postData(`${FLOW_API}/work/complete-task`, {
        taskId,
        processInstanceId,
        ...(decision === 'ok' ? { flag: 'ok' } : {}),
        comment: comment.trim(),
        variables: {},
      });
      message.success(t('work.handle.done'));
      leavePage('/work/todo/index');
      void refresh();
    } catch {
      /* the client's toast shows why */
    } finally {
      setBusy(null);
    }
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%', maxWidth: 960 }}>
      <Card
        variant="borderless"
        title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('work.handle.title')}</h2>}
        extra={
          <Button
            icon={<ApartmentOutlined />}
            onClick={() => processInstanceId && diagram.open({ processInstanceId })}
          >
            {t('wf.diagram')}
          </Button>
        }
      >
        <LeaveRecord businessId={businessId} />
      </Card>
      <Card
        variant="borderless"
        title={<h3 style={{ fontSize: 15, margin: 0 }}>{t('work.history.title')}</h3>}
      >
        <HistoryTimeline processInstanceId={processInstanceId} />
      </Card>
      <Card
        variant="borderless"
        title={<h3 style={{ fontSize: 15, margin: 0 }}>{t('work.handle.opinion')}</h3>}
      >
        <Form
          form={form}
          name="leaveHandle"
          layout="vertical"
          aria-label={t('work.handle.opinion')}
          disabled={!!busy}
        >
          <Form.Item
            name="comment"
            label={t('work.comment')}
            rules={[
              { required: true, whitespace: true, message: t('work.handle.commentRequired') },
              { max: 1000, message: t('wf.maxLength', { max: 1000 }) },
            ]}
          >
            <Input.TextArea rows={3} showCount maxLength={1000} />
          </Form.Item>
          <Space>
            <Button
              type="primary"
              icon={<CheckOutlined />}
              loading={busy === 'ok'}
              onClick={() => complete('ok')}
            >
              {t('work.approve')}
            </Button>
            <Button
              danger
              icon={<CloseOutlined />}
              loading={busy === 'reject'}
              onClick={() => complete('reject')}
            >
              {t('work.reject')}
            </Button>
          </Space>
        </Form>
      </Card>
      {diagram.element}
    </Space>
  );
}
