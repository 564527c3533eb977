/**
 * 短信配置: the generic list of SMS configs with whether each is enabled, and per row 启用 (`sms_enable`:
 * the tenant's one enabled config, after a confirmation) and 发送测试 (`sms_send`): a dialog asking for
 * phones and one value per `{param}` of the config's template, checked here as the server checks them, and
 * answering each phone's state with the provider's message id or its refusal code; beside it the receipt
 * address to paste into the provider's console. Every message sent is on 短信日志.
 */
import './i18n';
import {
  SMS_PARAM_MAX,
  SMS_PHONE,
  SMS_PHONES_MAX,
  SMS_STATE,
  smsLogResource,
  smsPlaceholders,
  smsResource,
} from '@smart/contracts/sms';
import { Alert, Button, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { getData, postData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';
import { EnableAction, EnabledTag } from './EnableAction';

const BASE = `/api/${smsResource.service}/${smsResource.path}`;
const ENABLE_CODE = `${smsResource.permission}_enable`;
const SEND_CODE = `${smsResource.permission}_send`;
const nameOf = (row: Row) => String(row.smsCode ?? '');
const PHONE = new RegExp(SMS_PHONE);

interface SendAnswer {
  requestId: string | null;
  messages: {
    phone: string;
    state: string;
    messageId: string | null;
    code: string | null;
    message: string | null;
  }[];
}

const phonesOf = (text: string) => [...new Set(text.split(/[,，\s]+/).filter(Boolean))];

function SendDialog({ row, onClose }: { row: Row; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<SendAnswer | null>(null);
  const [receiptKey, setReceiptKey] = useState<string | null>(null);
  const names = smsPlaceholders(String(row.templateContent ?? ''));
  useEffect(() => {
    let live = true;
    getData<Row>(`${BASE}/detail`, { id: String(row.id) })
      .then((d) => live && setReceiptKey(d.receiptKey ? String(d.receiptKey) : null))
      .catch(() => undefined); // the http client has shown what went wrong
    return () => {
      live = false;
    };
  }, [row.id]);
  const send = async () => {
    const v = (await form.validateFields()) as { phones: string } & Record<string, string>;
    setSending(true);
    try {
      const params = Object.fromEntries(names.map((k) => [k, v[`param_${k}`]]));
      setAnswer(
        await postData<SendAnswer>(`${BASE}/endpoint/send-message`, {
          code: nameOf(row),
          phones: phonesOf(v.phones).join(','),
          params,
        }),
      );
    } catch {
      // the http client has shown the refusal, with the provider's code
    } finally {
      setSending(false);
    }
  };
  const receiptUrl = receiptKey && `${window.location.origin}${BASE}/receipt/${row.id}/${receiptKey}`;
  return (
    <Modal
      open
      title={t('resource.sendTitle', { name: nameOf(row) })}
      onCancel={onClose}
      width={640}
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.close')}</Button>
          <Button
            onClick={() => {
              onClose();
              navigate(`${smsLogResource.route}/index`);
            }}
          >
            {t('resource.openLog')}
          </Button>
          <Button type="primary" loading={sending} onClick={send} data-testid="sms-send">
            {t('resource.send')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        {t('resource.template')}: {String(row.templateContent ?? '')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          name="phones"
          label={t('resource.phones')}
          extra={t('resource.phonesHint', { max: SMS_PHONES_MAX })}
          rules={[
            { required: true, message: t('resource.phonesRequired') },
            {
              validator: async (_r, value: string | undefined) => {
                const list = phonesOf(value ?? '');
                const bad = list.find((p) => !PHONE.test(p));
                if (bad) throw new Error(t('resource.phoneBad', { phone: bad }));
                if (list.length > SMS_PHONES_MAX)
                  throw new Error(t('resource.phonesTooMany', { max: SMS_PHONES_MAX }));
              },
            },
          ]}
        >
          <Input.TextArea rows={2} placeholder="13800000000, 13900000000" />
        </Form.Item>
        {names.map((k) => (
          <Form.Item
            key={k}
            name={`param_${k}`}
            label={`{${k}}`}
            rules={[
              { required: true, message: t('resource.paramRequired', { name: k }) },
              { max: SMS_PARAM_MAX, message: t('resource.paramTooLong', { name: k, max: SMS_PARAM_MAX }) },
            ]}
          >
            <Input />
          </Form.Item>
        ))}
      </Form>
      {answer && (
        <>
          <Alert
            type="success"
            showIcon
            style={{ marginBottom: 12 }}
            message={t('resource.sent', { id: answer.requestId ?? '—' })}
            data-testid="sms-sent"
          />
          <Table
            size="small"
            rowKey="phone"
            pagination={false}
            dataSource={answer.messages}
            columns={[
              { title: t('resource.phone'), dataIndex: 'phone' },
              {
                title: t('common.status'),
                dataIndex: 'state',
                render: (s: string) =>
                  s === SMS_STATE.sent ? (
                    <Tag color="blue">{t('resource.stateSent')}</Tag>
                  ) : (
                    <Tag color="red">{t('resource.stateFailed')}</Tag>
                  ),
              },
              {
                title: t('resource.messageIdOrCode'),
                render: (_v, m) => m.messageId ?? `${m.code ?? ''} ${m.message ?? ''}`,
              },
            ]}
          />
        </>
      )}
      {receiptUrl && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('resource.receiptUrl')}:{' '}
          <Typography.Text copyable={{ text: receiptUrl }} code style={{ wordBreak: 'break-all' }}>
            {receiptUrl}
          </Typography.Text>
        </Typography.Paragraph>
      )}
    </Modal>
  );
}

export default function SmsPage() {
  const { t } = useTranslation();
  useSession((s) => s.permission); // re-render when grants change
  const [sending, setSending] = useState<Row | null>(null);
  return (
    <>
      <CrudPage
        def={smsResource}
        rowName={nameOf}
        columns={{ render: { enabled: (_v, row) => <EnabledTag row={row} /> } }}
        rowActions={(row, ctx) => (
          <>
            {can(ENABLE_CODE) && Number(row.enabled) !== 1 && (
              <EnableAction
                base={BASE}
                row={row}
                ctx={ctx}
                name={nameOf(row)}
                confirm={t('resource.smsEnableConfirm', { name: nameOf(row) })}
              />
            )}
            {can(SEND_CODE) && (
              <Button
                type="link"
                size="small"
                onClick={() => setSending(row)}
                aria-label={`${t('resource.sendTest')} ${nameOf(row)}`}
              >
                {t('resource.sendTest')}
              </Button>
            )}
          </>
        )}
      />
      {sending && <SendDialog key={String(sending.id)} row={sending} onClose={() => setSending(null)} />}
    </>
  );
}
