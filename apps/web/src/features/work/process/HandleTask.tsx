/** The handle page's frame: the request, its record, and approve / reject / hand on. */
import '../i18n';
import { ApartmentOutlined, CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { App, Button, Card, Form, Input, Space } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { postData } from '../../../platform/http/client';
import { FLOW_API } from '../../flow/api';
import { useFlowDiagram } from '../../flow/diagram';
import { useRefreshFlowLists } from '../../flow/PagedList';
import { type ApproverLists, approverListsOf, CountersignFields, useCountersigns } from './Countersign';
import { useLeavePage } from './params';
import { HistoryTimeline, heading, subheading } from './RequestRecord';

/**
 * A handle page: the business record (`children`), the timeline, a required comment, 同意 (flag ok) or
 * 驳回 (no flag) through work/complete-task; then back to 待办事务. When a countersign (会签, 或签) comes
 * right after this step, its approvers are picked here (required to approve) and sent as its collection
 * variable.
 */
export function HandleTask({
  title,
  formName,
  taskId,
  processInstanceId,
  children,
}: {
  title: string;
  /** the comment form's name (its fields' ids) */
  formName: string;
  taskId: string | undefined;
  processInstanceId: string | undefined;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ comment: string; variables?: ApproverLists }>();
  const [busy, setBusy] = useState<'ok' | 'reject' | null>(null);
  const refresh = useRefreshFlowLists();
  const leavePage = useLeavePage();
  const diagram = useFlowDiagram();
  const countersigns = useCountersigns(taskId ? { taskId } : undefined);

  const complete = async (decision: 'ok' | 'reject') => {
    let comment: string;
    let variables: ApproverLists | undefined;
    try {
      // the next countersign's approvers are needed to approve; a rejection sends them only if chosen
      if (decision === 'ok') ({ comment } = await form.validateFields());
      else ({ comment } = await form.validateFields(['comment']));
      variables = approverListsOf(form.getFieldsValue());
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
        variables: variables ?? {},
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
        title={heading(title)}
        extra={
          <Button
            icon={<ApartmentOutlined />}
            onClick={() => processInstanceId && diagram.open({ processInstanceId })}
          >
            {t('flow.diagram')}
          </Button>
        }
      >
        {children}
      </Card>
      <Card variant="borderless" title={subheading(t('work.history.title'))}>
        <HistoryTimeline processInstanceId={processInstanceId} />
      </Card>
      <Card variant="borderless" title={subheading(t('work.handle.opinion'))}>
        <Form
          form={form}
          name={formName}
          layout="vertical"
          aria-label={t('work.handle.opinion')}
          disabled={!!busy}
        >
          <CountersignFields steps={countersigns} />
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
