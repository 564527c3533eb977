/**
 * /work/process/:family/form/:processDefinitionId — 发起申请, the form of every process family without
 * pages of its own: a title, a content and the approver (required when the diagram assigns a task to
 * `${taskUser}`, else optional); 提交 starts the process (process/apply/start-process) and goes to 已发事务.
 */
import '../i18n';
import { useQuery } from '@tanstack/react-query';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchModelView } from '../../flow/api';
import { usePatternParams } from '../process/params';
import { ApproverSelect, StartForm } from '../process/StartForm';
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

  return (
    <StartForm<Values>
      title={t('work.apply.formTitle')}
      name="applyForm"
      processDefinitionId={processDefinitionId}
      form={form}
      fields={FIELDS}
      url={`${APPLY_API}/start-process`}
      toBody={(v) => ({
        title: v.title.trim(),
        content: v.content?.trim() ?? '',
        ...(v.taskUser ? { taskUser: v.taskUser } : {}),
      })}
      started={t('work.apply.started')}
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
    </StartForm>
  );
}
