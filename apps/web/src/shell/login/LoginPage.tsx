/**
 * /login — kept light on purpose (first-load budget 150 KB compressed): no antd (its look, by
 * platform/ui/plain-form), a plain <form>, no shell, no TanStack Query. Errors show inline.
 */
import type { CaptchaResult } from '@smart/contracts/core';
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchCaptcha, requestToken } from '../../platform/auth/api';
import { useLanguage } from '../../platform/i18n';
import { isGuestUser, signIn, useSession } from '../../platform/session/session';
import { useSettings } from '../../platform/session/settings';
import { PlainInput, PlainPassword, PlainSubmit, usePlainFormAccent } from '../../platform/ui/plain-form';
import { afterSignIn } from '../guard';
import { LanguageLinks } from '../LanguageLinks';
import { loadHomePage, loadLayout, loadPageHost } from '../lazy';

type Field = 'tenantId' | 'username' | 'password' | 'captcha';

const styles = {
  page: {
    minHeight: '100%',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    background: 'linear-gradient(135deg, #1f3c88 0%, #409eff 100%)',
    padding: 16,
    boxSizing: 'border-box',
  },
  card: {
    width: '100%',
    maxWidth: 400,
    background: '#fff',
    borderRadius: 8,
    boxShadow: '0 8px 24px rgba(0,0,0,.18)',
    padding: '32px 32px 24px',
    boxSizing: 'border-box',
  },
  field: { marginBottom: 16 },
  label: { display: 'block', marginBottom: 6, fontSize: 14, color: '#303133' },
  captchaRow: { display: 'flex', gap: 8, alignItems: 'stretch' },
  captchaButton: {
    padding: 0,
    border: '1px solid #d9d9d9',
    borderRadius: 6,
    background: '#fafafa',
    cursor: 'pointer',
    width: 120,
    minHeight: 40,
    flex: 'none',
  },
  alert: {
    marginBottom: 16,
    padding: '8px 12px',
    borderRadius: 6,
    background: '#fff2f0',
    border: '1px solid #ffccc7',
    color: '#a8071a',
    fontSize: 14,
  },
} satisfies Record<string, React.CSSProperties>;

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const settings = useSettings((s) => s.settings);
  const accent = usePlainFormAccent();
  const id = useId();
  const [tenantId, setTenantId] = useState(settings.defaultTenantId);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [captchaCode, setCaptchaCode] = useState('');
  const [captcha, setCaptcha] = useState<CaptchaResult | null>(null);
  const [captchaFailed, setCaptchaFailed] = useState(false);
  const [error, setError] = useState('');
  const [invalid, setInvalid] = useState<Field | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const refs = {
    tenantId: useRef<HTMLInputElement>(null),
    username: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    captcha: useRef<HTMLInputElement>(null),
  };

  useEffect(() => {
    setTenantId((current) => current || settings.defaultTenantId);
  }, [settings.defaultTenantId]);

  const refreshCaptcha = useCallback(async () => {
    try {
      setCaptcha(await fetchCaptcha());
      setCaptchaFailed(false);
    } catch {
      setCaptcha(null);
      setCaptchaFailed(true);
    }
    setCaptchaCode('');
  }, []);

  useEffect(() => {
    if (settings.captchaMode) void refreshCaptcha();
  }, [settings.captchaMode, refreshCaptcha]);

  const fail = (field: Field | null, message: string) => {
    setInvalid(field);
    setError(message);
    if (field) refs[field].current?.focus();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const tenant = settings.tenantMode ? tenantId.trim() : settings.defaultTenantId;
    if (settings.tenantMode && !tenant) return fail('tenantId', t('login.required.tenantId'));
    if (!username.trim()) return fail('username', t('login.required.username'));
    if (!password) return fail('password', t('login.required.password'));
    if (settings.captchaMode && !captchaCode.trim()) return fail('captcha', t('login.required.captcha'));
    setInvalid(null);
    setError('');
    setSubmitting(true);
    // the password goes first: the browser opens six connections to a server, and the shell's chunks
    // asked for before it would hold them all while the password waits behind them
    const token = requestToken(
      {
        tenantId: tenant,
        username: username.trim(),
        password,
        captchaKey: captcha?.key,
        captchaCode: captchaCode.trim(),
      },
      settings.captchaMode,
    );
    // while the server checks the password: the shell's and the home page's chunks
    const warm = Promise.all([loadLayout(), loadPageHost(), loadHomePage()]);
    warm.catch(() => {});
    try {
      const result = await token;
      signIn(result);
      // the home's answer is asked for now, beside the menus, not once its page has loaded
      const user = useSession.getState().userInfo;
      if (!isGuestUser(user) && !user?.passwordChangeRequired)
        void warm
          .then(([layout, , home]) =>
            layout.queryClient.prefetchQuery(home.homeQuery(useLanguage.getState().language)),
          )
          .catch(() => {});
      // on to the page a signed-out visitor asked for (a bookmark, a link in a notice)
      await navigate(afterSignIn(window.location.search), { replace: true });
    } catch (e) {
      setSubmitting(false);
      fail(null, e instanceof Error && e.message ? e.message : t('http.unknownError'));
      if (settings.captchaMode) void refreshCaptcha();
    }
  };

  const errorId = `${id}-error`;
  const describedBy = (field: Field) =>
    error && (invalid === field || invalid === null) ? errorId : undefined;

  return (
    <main className="login-page" style={{ ...styles.page, ...accent }}>
      <div style={styles.card}>
        <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 8 }}>
          <LanguageLinks />
        </div>
        <h1 style={{ margin: '0 0 4px', fontSize: 26, textAlign: 'center', color: '#1f2d3d' }}>
          {t('app.title')}
        </h1>
        <p style={{ margin: '0 0 24px', textAlign: 'center', color: '#606266' }}>{t('login.subtitle')}</p>
        <form aria-label={t('login.form')} onSubmit={onSubmit} noValidate>
          {error && (
            <div id={errorId} role="alert" style={styles.alert}>
              {error}
            </div>
          )}
          {settings.tenantMode && (
            <div style={styles.field}>
              <label htmlFor={`${id}-tenant`} style={styles.label}>
                {t('login.tenantId')}
              </label>
              <PlainInput
                id={`${id}-tenant`}
                ref={refs.tenantId}
                name="tenantId"
                autoComplete="organization"
                placeholder={t('login.tenantIdPlaceholder')}
                value={tenantId}
                invalid={invalid === 'tenantId'}
                aria-invalid={invalid === 'tenantId' || undefined}
                aria-describedby={describedBy('tenantId')}
                onChange={(e) => setTenantId(e.target.value)}
              />
            </div>
          )}
          <div style={styles.field}>
            <label htmlFor={`${id}-username`} style={styles.label}>
              {t('login.username')}
            </label>
            <PlainInput
              id={`${id}-username`}
              ref={refs.username}
              name="username"
              autoComplete="username"
              autoFocus
              placeholder={t('login.usernamePlaceholder')}
              value={username}
              invalid={invalid === 'username'}
              aria-invalid={invalid === 'username' || undefined}
              aria-describedby={describedBy('username')}
              onChange={(e) => setUsername(e.target.value)}
            />
          </div>
          <div style={styles.field}>
            <label htmlFor={`${id}-password`} style={styles.label}>
              {t('login.password')}
            </label>
            <PlainPassword
              id={`${id}-password`}
              ref={refs.password}
              name="password"
              autoComplete="current-password"
              placeholder={t('login.passwordPlaceholder')}
              value={password}
              invalid={invalid === 'password'}
              aria-invalid={invalid === 'password' || undefined}
              aria-describedby={describedBy('password')}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          {settings.captchaMode && (
            <div style={styles.field}>
              <label htmlFor={`${id}-captcha`} style={styles.label}>
                {t('login.captcha')}
              </label>
              <div style={styles.captchaRow}>
                <PlainInput
                  id={`${id}-captcha`}
                  ref={refs.captcha}
                  name="captcha"
                  autoComplete="off"
                  placeholder={t('login.captchaPlaceholder')}
                  value={captchaCode}
                  invalid={invalid === 'captcha'}
                  aria-invalid={invalid === 'captcha' || undefined}
                  aria-describedby={describedBy('captcha')}
                  onChange={(e) => setCaptchaCode(e.target.value)}
                />
                <button
                  type="button"
                  style={styles.captchaButton}
                  title={t('login.captchaRefresh')}
                  aria-label={t('login.captchaRefresh')}
                  onClick={() => void refreshCaptcha()}
                >
                  {captcha ? (
                    <img
                      src={captcha.image}
                      alt={t('login.captchaImage')}
                      style={{ display: 'block', width: '100%', height: 38, objectFit: 'contain' }}
                    />
                  ) : (
                    <span style={{ fontSize: 12, color: '#606266' }}>
                      {captchaFailed ? t('login.captchaRefresh') : t('login.captchaLoading')}
                    </span>
                  )}
                </button>
              </div>
            </div>
          )}
          <PlainSubmit busy={submitting}>{t('login.submit')}</PlainSubmit>
        </form>
      </div>
    </main>
  );
}
