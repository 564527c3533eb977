/** The start form's frame: the process line, the approver picker, the server's field errors. */
import '../i18n';
import { SendOutlined } from '@ant-design/icons';
import type { FormInstance } from 'antd';
import { App, Button, Card, Form, Select, Space, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError, postData } from '../../../platform/http/client';
import { approverListsOf, CountersignFields, useApproverChoices, useCountersigns } from './Countersign';
import { useLeavePage, useStartable } from './params';

/** 流程: name and version of the process a form starts. */
export function ProcessLine({ processDefinitionId }: { processDefinitionId: string | undefined }) {
  const { t } = useTranslation();
  const definition = useStartable(processDefinitionId);
  return (
    <span>
      {t('work.process')}:{' '}
      {definition
        ? `${definition.processDefinitionName} v${definition.processDefinitionVersion}`
        : processDefinitionId}
    </span>
  );
}

/** The users of the tenant as a searchable select (a form's approver). */
export function ApproverSelect(props: {
  id?: string;
  value?: string;
  onChange?: (v: string | undefined) => void;
  allowClear?: boolean;
}) {
  const { t } = useTranslation();
  const choices = useApproverChoices(props.value);
  return <Select {...props} {...choices} placeholder={t('work.approverPlaceholder')} />;
}

/** Shows the server's field error (400 with `data.field`) on that field when the form has it. */
export function showFieldError<T extends object>(
  form: FormInstance<T>,
  fields: readonly string[],
  e: unknown,
) {
  const field = e instanceof HttpError ? (e.body as { data?: { field?: string } })?.data?.field : undefined;
  if (field && fields.includes(field))
    form.setFields([{ name: field as never, errors: [(e as Error).message] }]);
}

/**
 * A start form (发起): the process it starts, the fields (`children`), the approvers of each countersign
 * the process begins with (会签, 或签: sent as its collection variable in `variables`), 提交 and 清空.
 * Submitting posts `toBody(values)` to `url`, says `started`, and goes to 已发事务; a field the server
 * refuses is marked on the form (one of `fields`).
 */
export function StartForm<V extends object>({
  title,
  name,
  processDefinitionId,
  form,
  fields,
  url,
  toBody,
  started,
  children,
}: {
  title: string;
  name: string;
  processDefinitionId: string | undefined;
  form: FormInstance<V>;
  fields: readonly string[];
  url: string;
  toBody: (values: V) => object;
  started: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const leavePage = useLeavePage();
  const countersigns = useCountersigns(processDefinitionId ? { processDefinitionId } : undefined);

  const submit = async (values: V) => {
    setBusy(true);
    try {
      const variables = approverListsOf(values);
      await postData(url, { processDefinitionId, ...toBody(values), ...(variables ? { variables } : {}) });
      message.success(started);
      leavePage('/work/send/index');
    } catch (e) {
      showFieldError(form, fields, e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      variant="borderless"
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{title}</h2>}
      style={{ maxWidth: 760 }}
    >
      <Typography.Paragraph type="secondary">
        <ProcessLine processDefinitionId={processDefinitionId} />
      </Typography.Paragraph>
      <Form<V> form={form} name={name} layout="vertical" onFinish={submit} aria-label={title} disabled={busy}>
        {children}
        <CountersignFields steps={countersigns} />
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={busy}>
              {t('common.submit')}
            </Button>
            <Button htmlType="button" onClick={() => form.resetFields()}>
              {t('common.clear')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
