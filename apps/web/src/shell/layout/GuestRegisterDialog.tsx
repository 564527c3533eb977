/**
 * 账号注册 (spec §2, §3, §5, §8): shown, not closable, when a third-party sign-in has no account yet (no
 * user id, or a negative one). Checked in the spec's order; the request awaits an administrator's
 * approval, so on success the user is logged out and sent to /login.
 */
import { App, Button, Modal } from 'antd';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HttpError, request } from '../../platform/http/client';
import { md5Hex } from '../../platform/md5';
import { logout, useSession } from '../../platform/session/session';
import { useSettings } from '../../platform/session/settings';
import { Input, Password } from '../../platform/ui/light-input';
import { checkGuestForm, type GuestForm } from './guestForm';

export default function GuestRegisterDialog() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const id = useId();
  const user = useSession((s) => s.userInfo);
  const tenantId = useSession((s) => s.tenantId);
  const defaultTenant = useSettings((s) => s.settings.defaultTenantId);
  const [form, setForm] = useState<GuestForm>({
    tenantId: user?.tenantId || tenantId || defaultTenant,
    name: user?.realName || user?.name || '',
    account: '',
    password: '',
    password2: '',
  });
  const [submitting, setSubmitting] = useState(false);
  const set = (key: keyof GuestForm) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const check = checkGuestForm(form);
    if (!check.ok) {
      message.warning(t(check.key));
      return;
    }
    setSubmitting(true);
    try {
      await request('/api/dfem-user/register-guest', {
        method: 'POST',
        auth: false,
        silent: true,
        params: {
          tenantId: form.tenantId.trim(),
          name: form.name.trim(),
          account: form.account.trim(),
          password: md5Hex(form.password),
          oauthId: user?.oauthId,
        },
      });
      modal.success({
        title: t('register.resultTitle'),
        content: t('register.submitted'),
        okText: t('common.ok'),
        onOk: async () => {
          await logout();
          await navigate('/login', { replace: true });
        },
      });
    } catch (error) {
      const msg = error instanceof HttpError && error.body ? error.message : '';
      modal.error({
        title: t('register.resultTitle'),
        content: msg && msg !== t('http.unknownError') ? msg : t('register.failed'),
        okText: t('common.ok'),
      });
    } finally {
      setSubmitting(false);
    }
  };

  const field = (key: keyof GuestForm, label: string, secret = false) => {
    const Control = secret ? Password : Input;
    return (
      <div style={{ marginBottom: 14 }}>
        <label htmlFor={`${id}-${key}`} style={{ display: 'block', marginBottom: 6 }}>
          {label}
        </label>
        <Control
          id={`${id}-${key}`}
          value={form[key]}
          onChange={set(key)}
          autoComplete={secret ? 'new-password' : 'off'}
        />
      </div>
    );
  };

  return (
    <Modal
      open
      title={t('register.title')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={null}
      width={460}
    >
      <p style={{ color: 'var(--ant-color-text-secondary, #606266)' }}>{t('register.description')}</p>
      <form onSubmit={submit} noValidate aria-label={t('register.title')}>
        {field('tenantId', t('register.tenantId'))}
        {field('name', t('register.name'))}
        {field('account', t('register.account'))}
        {field('password', t('register.password'), true)}
        {field('password2', t('register.password2'), true)}
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {t('common.submit')}
        </Button>
      </form>
    </Modal>
  );
}
