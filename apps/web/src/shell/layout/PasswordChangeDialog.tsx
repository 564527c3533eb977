/**
 * Forced change of an initial password after sign-in (password_change_required). Not closable: the server
 * serves nothing else until the password is changed, so the shell shows this dialog alone; signing out is
 * the other way out. Loaded only when needed, so its Form stays out of the home page's first load.
 */
import { App, Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { updatePassword } from '../../platform/auth/api';
import { ensureSessionData, logout, useSession } from '../../platform/session/session';

interface Values {
  oldPassword: string;
  newPassword: string;
  newPassword1: string;
}

export default function PasswordChangeDialog() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const navigate = useNavigate();

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      await updatePassword(values.oldPassword, values.newPassword, values.newPassword1);
      message.success(t('password.success'));
      useSession.setState((s) => ({
        passwordChangeRequired: false,
        userInfo: s.userInfo ? { ...s.userInfo, passwordChangeRequired: false } : s.userInfo,
      }));
      // this session stays signed in (the server ended the others): now menus and buttons may load
      await ensureSessionData(true);
    } catch {
      /* the http client already showed the server's message */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t('password.title')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={null}
      destroyOnHidden
    >
      <p style={{ color: 'var(--ant-color-text-secondary, #606266)' }}>{t('password.description')}</p>
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item
          name="oldPassword"
          label={t('password.old')}
          rules={[{ required: true, message: t('password.oldRequired') }]}
        >
          <Input.Password autoComplete="current-password" autoFocus />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('password.new')}
          rules={[
            { required: true, whitespace: true, message: t('password.newRequired') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || value !== getFieldValue('oldPassword')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('password.sameAsOld'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="newPassword1"
          label={t('password.confirm')}
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('password.confirmRequired') },
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                !value || value === getFieldValue('newPassword')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('password.mismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={saving}>
          {t('password.submit')}
        </Button>
        <Button
          type="link"
          block
          style={{ marginTop: 8 }}
          onClick={async () => {
            await logout();
            await navigate('/login', { replace: true });
          }}
        >
          {t('navbar.logout')}
        </Button>
      </Form>
    </Modal>
  );
}
