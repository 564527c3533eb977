/**
 * /work/process/:family/form/:processDefinitionId — 发起申请, the form of every process family without
 * pages of its own: a title, a content and the approver (required when the diagram assigns a task to
 * `${taskUser}`, else optional); 提交 starts the process (process/apply/start-process) and goes to 已发事务.
 */
import '../i18n';
import { SendOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { postData } from '../../../platform/http/client';
import { fetchModelView } from '../../flow/api';
import { ApproverSelect, ProcessLine, showFieldError, useLeavePage, usePatternParams } from '../parts';
import { APPLY_PATTERNS } from '../routes';
import { APPLY_API, APPLY_LIMITS, needsApprover } from './apply';

interface Values {
  title: string;
  content?: string;
  taskUser?: string;
}

const FIELDS = ['title', 'content', 'taskUser'] as const;

export default function ApplyFormPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { processDefinitionId } = usePatternParams<'processDefinitionId'>(APPLY_PATTERNS.form);
  // the diagram says whether a task waits for the approver the applicant names
  const diagram = useQuery({
    queryKey: ['flow-model-view', { processDefinitionId }],
    queryFn: () => fetchModelView({ processDefinitionId: processDefinitionId! }),
    enabled: !!processDefinitionId,
    staleTime: 60_000,
  });
  const approverRequired = needsApprover(diagram.data?.xml);
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const leavePage = useLeavePage();

  const submit = async (v: Values) => {
    setBusy(true);
    try {
      await postData(`${APPLY_API}/start-process`, {
        processDefinitionId,
        title: v.title.trim(),
        content: v.content?.trim() ?? '',
        ...(v.taskUser ? { taskUser: v.taskUser } : {}),
      });
      message.success(t('work.apply.started'));
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
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('work.apply.formTitle')}</h2>}
      style={{ maxWidth: 760 }}
    >
      <Typography.Paragraph type="secondary">
        <ProcessLine processDefinitionId={processDefinitionId} />
      </Typography.Paragraph>
      <Form<Values>
        form={form}
        name="applyForm"
        layout="vertical"
        onFinish={submit}
        aria-label={t('work.apply.formTitle')}
        disabled={busy}
      >
        <Form.Item
          name="title"
          label={t('work.apply.title')}
          rules={[
            { required: true, whitespace: true, message: t('work.apply.titleRequired') },
            { max: APPLY_LIMITS.title, message: t('work.apply.titleMax', { max: APPLY_LIMITS.title }) },
          ]}
        >
          <Input maxLength={APPLY_LIMITS.title} />
        </Form.Item>
        <Form.Item
          name="content"
          label={t('work.apply.content')}
          rules={[
            { max: APPLY_LIMITS.content, message: t('work.apply.contentMax', { max: APPLY_LIMITS.content }) },
          ]}
        >
          <Input.TextArea rows={5} showCount maxLength={APPLY_LIMITS.content} />
        </Form.Item>
        <Form.Item
          name="taskUser"
          label={t('work.approver')}
          extra={approverRequired ? undefined : t('work.apply.approverOptional')}
          rules={[{ required: approverRequired, message: t('work.approverRequired') }]}
        >
          <ApproverSelect allowClear />
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
