/** A reason asked before an action that needs one (cancelling an exchange, rejecting a deed). */
import { Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export function ReasonDialog(props: {
  open: boolean;
  title: string;
  hint?: string;
  onCancel: () => void;
  onSubmit: (reason: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const { reason } = await form.validateFields();
    setBusy(true);
    try {
      await props.onSubmit(reason.trim());
      form.resetFields();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onCancel}
      onOk={submit}
      confirmLoading={busy}
      destroyOnHidden
    >
      {props.hint && <Typography.Paragraph type="secondary">{props.hint}</Typography.Paragraph>}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="reason"
          label={t('mall.reason')}
          rules={[{ required: true, whitespace: true, message: t('mall.reasonRequired') }, { max: 200 }]}
        >
          <Input.TextArea rows={3} maxLength={200} showCount autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
