/** The lock button's dialog: a lock password (required, spec §5), then /lock; unlocking comes back. */
import { LOCK_PAGE } from '@smart/contracts/core';
import { Modal } from 'antd';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useLock } from '../../../platform/session/lock';
import { Password } from '../../../platform/ui/light-input';
import { closeDialog } from '../ui';

export default function LockDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const id = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!password) {
      setError(t('lock.required'));
      return;
    }
    useLock.getState().setPassword(password);
    useLock.getState().lock(pathname + search); // unlocking returns here
    closeDialog();
    void navigate(LOCK_PAGE);
  };

  return (
    <Modal
      open
      title={t('lock.setTitle')}
      width={400}
      okText={t('lock.lockNow')}
      cancelText={t('common.cancel')}
      onOk={() => submit()}
      onCancel={closeDialog}
      destroyOnHidden
    >
      <form onSubmit={submit} noValidate>
        <label htmlFor={`${id}-pw`} style={{ display: 'block', marginBottom: 6 }}>
          {t('lock.password')}
        </label>
        <Password
          id={`${id}-pw`}
          autoFocus
          autoComplete="off"
          value={password}
          status={error ? 'error' : undefined}
          aria-invalid={Boolean(error) || undefined}
          aria-describedby={error ? `${id}-err` : undefined}
          onChange={(e) => {
            setPassword(e.target.value);
            if (e.target.value) setError('');
          }}
        />
        {error && (
          <div id={`${id}-err`} role="alert" style={{ color: '#cf1322', marginTop: 6 }}>
            {error}
          </div>
        )}
      </form>
    </Modal>
  );
}
