import type { TextKey } from '../../platform/i18n';

/** The guest registration form (spec §3) and its checks (spec §5), in order. */
export interface GuestForm {
  tenantId: string;
  name: string;
  account: string;
  password: string;
  password2: string;
}

export type Check = { ok: true } | { ok: false; key: TextKey };

/** The first failing check, as an i18n key: tenant, account, passwords, their match. */
export function checkGuestForm(form: GuestForm): Check {
  if (!form.tenantId.trim()) return { ok: false, key: 'register.tenantRequired' };
  if (!form.account.trim()) return { ok: false, key: 'register.accountRequired' };
  if (!form.password || !form.password2) return { ok: false, key: 'register.passwordRequired' };
  if (form.password !== form.password2) return { ok: false, key: 'register.passwordMismatch' };
  return { ok: true };
}
