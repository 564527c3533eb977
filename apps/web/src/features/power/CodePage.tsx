/**
 * 采集配置: the versions of each type's collection settings (read-only rows the server writes), and
 * 提交新版本 — a type and its JSON, checked by the server against the type's schema (a refusal names what
 * is wrong); each submit is the next version, and a collector reads the latest (code/get).
 */
import './i18n';
import { collectSettingResource } from '@smart/contracts/power';
import { App, Button, Form, Input, Modal, Select } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import { useDict } from '../../platform/crud/dict';
import { getData, postData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';

const API = '/api/dfem-hope-power/code';

function SubmitDialog({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const types = useDict('power_code_type');
  const [form] = Form.useForm<{ type: string; content: string; note?: string }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // the type whose latest version is being read: the text area waits for it, so nothing typed meanwhile
  // is overwritten when it arrives, and only the last type picked fills it
  const [loadingType, setLoadingType] = useState<string>();
  const latestPick = useRef<string | undefined>(undefined);
  // the latest version of the type picked, as the starting text
  const load = async (type: string) => {
    latestPick.current = type;
    setLoadingType(type);
    try {
      const latest = await getData<{ content: unknown } | null>(`${API}/get`, { type });
      if (latestPick.current !== type) return;
      form.setFieldValue('content', latest ? JSON.stringify(latest.content, null, 2) : '');
    } finally {
      if (latestPick.current === type) setLoadingType(undefined);
    }
  };
  const save = async () => {
    const v = await form.validateFields();
    setBusy(true);
    setError(undefined);
    try {
      const r = await postData<{ version: number }>(`${API}/submit`, v, undefined, { silent: true });
      message.success(t('power.codeSaved', { version: r.version }));
      onSaved();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('power.codeSubmit')}
      onCancel={onClose}
      onOk={save}
      confirmLoading={busy}
      width={720}
    >
      <Form form={form} layout="vertical">
        <Form.Item name="type" label={t('power.codeType')} rules={[{ required: true }]}>
          <Select
            aria-label={t('power.codeType')}
            loading={types.isLoading}
            options={(types.data ?? []).map((d) => ({ value: d.dictKey, label: d.dictValue }))}
            onChange={(type: string) => void load(type)}
          />
        </Form.Item>
        <Form.Item
          name="content"
          label={t('power.codeContent')}
          rules={[{ required: true }]}
          validateStatus={error ? 'error' : undefined}
          help={error}
        >
          <Input.TextArea
            rows={14}
            spellCheck={false}
            style={{ fontFamily: 'monospace' }}
            disabled={loadingType !== undefined}
            aria-busy={loadingType !== undefined}
          />
        </Form.Item>
        <Form.Item name="note" label={t('power.codeNote')}>
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function CodePage() {
  const { t } = useTranslation();
  useSession((s) => s.permission);
  const [open, setOpen] = useState(false);
  return (
    <CrudPage
      def={collectSettingResource}
      toolbar={(ctx) =>
        can(`${collectSettingResource.permission}_submit`) && (
          <>
            <Button type="primary" onClick={() => setOpen(true)}>
              {t('power.codeSubmit')}
            </Button>
            {open && (
              <SubmitDialog
                onClose={() => setOpen(false)}
                onSaved={() => {
                  setOpen(false);
                  void ctx.refresh();
                }}
              />
            )}
          </>
        )
      }
    />
  );
}
