/**
 * /lock — the lock screen. While the lock flag is set the guard sends every navigation here; the lock
 * password unlocks and returns to the page the screen was locked from.
 */
import '../layout/i18n';
import { FIRST_PAGE } from '@smart/contracts/core';
import { Button } from 'antd';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { unlockTarget, useLock } from '../../platform/session/lock';
import { logout, useSession } from '../../platform/session/session';
import { Password } from '../../platform/ui/light-input';
import { usePrimaryButtonStyle } from '../../platform/ui/primaryButton';

export default function LockPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useId();
  const { isLock, lockPasswd } = useLock();
  const userName = useSession((s) => s.userInfo?.realName || s.userInfo?.account || '');
  const primaryStyle = usePrimaryButtonStyle();
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');

  const unlock = (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(t('lock.required'));
    if (password !== lockPasswd) return setError(t('lock.wrong'));
    const back = unlockTarget(useLock.getState().from); // the page locked from
    useLock.getState().clear();
    void navigate(back, { replace: true });
  };

  const signOut = async () => {
    await logout();
    void navigate('/login', { replace: true });
  };

  return (
    <main
      style={{
        minHeight: '100%',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'linear-gradient(135deg, #1f3c88 0%, #409eff 100%)',
      }}
    >
      <div style={{ background: '#fff', borderRadius: 8, padding: 32, width: 340, textAlign: 'center' }}>
        <h1 style={{ fontSize: 22, margin: '0 0 8px' }}>{isLock ? t('lock.title') : t('lock.notLocked')}</h1>
        {userName && <p style={{ margin: '0 0 16px', color: '#606266' }}>{userName}</p>}
        {isLock ? (
          <form onSubmit={unlock} noValidate>
            <label htmlFor={`${id}-pw`} style={{ display: 'block', textAlign: 'left', marginBottom: 6 }}>
              {t('lock.password')}
            </label>
            <Password
              id={`${id}-pw`}
              autoFocus
              value={password}
              status={error ? 'error' : undefined}
              aria-describedby={error ? `${id}-err` : undefined}
              onChange={(e) => setPassword(e.target.value)}
            />
            {error && (
              <div
                id={`${id}-err`}
                role="alert"
                style={{ color: '#a8071a', marginTop: 8, textAlign: 'left' }}
              >
                {error}
              </div>
            )}
            <Button type="primary" htmlType="submit" block style={{ ...primaryStyle, marginTop: 16 }}>
              {t('lock.unlock')}
            </Button>
            <Button type="link" block onClick={() => void signOut()} style={{ marginTop: 8 }}>
              {t('lock.logout')}
            </Button>
          </form>
        ) : (
          <Button type="primary" style={primaryStyle} onClick={() => navigate(FIRST_PAGE)}>
            {t('lock.enter')}
          </Button>
        )}
      </div>
    </main>
  );
}
