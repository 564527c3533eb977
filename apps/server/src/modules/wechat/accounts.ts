import { WX_NO_ACCOUNT } from '@smart/contracts';
import { and, asc, eq, type SQL } from 'drizzle-orm';
import type { RequestContext } from '../../platform/auth/context';
import type { Row } from '../../platform/crud/binding';
import { mountedResource } from '../../platform/crud/refs';
import { liveRows } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { TextError } from '../../platform/http/errors';
import type { WxCredentials } from './client';

/**
 * A tenant's public account as the WeChat actions use it: the one a call names (`accountId`), else the
 * tenant's first. Read within the tenant's live accounts (accounts are the tenant's configuration: whoever may
 * act on followers or menus acts for them, as a picker reads them). Without one, or without its AppSecret, a
 * 400 saying what to configure.
 */
export interface WxAccount extends WxCredentials {
  id: string;
  tenantId: string;
  name: string;
  token: string;
  aesKey: string | null;
  syncState: string | null;
  syncDone: number;
  syncTotal: number | null;
  syncNextOpenid: string | null;
}

export const accountResource = () => mountedResource('wxAccount');

const accountColumns = () => {
  const c = accountResource().cols;
  return {
    id: c.id,
    tenantId: c.tenantId,
    name: c.name,
    appId: c.appId,
    appSecret: c.appSecret,
    token: c.token,
    aesKey: c.aesKey,
    syncState: c.syncState,
    syncDone: c.syncDone,
    syncTotal: c.syncTotal,
    syncNextOpenid: c.syncNextOpenid,
  };
};

const asAccount = (r: Row): WxAccount => ({
  id: String(r.id),
  tenantId: String(r.tenantId),
  name: String(r.name ?? ''),
  appId: String(r.appId ?? ''),
  appSecret: String(r.appSecret ?? ''),
  token: String(r.token ?? ''),
  aesKey: r.aesKey ? String(r.aesKey) : null,
  syncState: r.syncState === null || r.syncState === undefined ? null : String(r.syncState),
  syncDone: Number(r.syncDone ?? 0),
  syncTotal: r.syncTotal === null || r.syncTotal === undefined ? null : Number(r.syncTotal),
  syncNextOpenid: r.syncNextOpenid ? String(r.syncNextOpenid) : null,
});

/** The tenant's account a WeChat action is for (see above); `via` a transaction's handle. */
export async function accountFor(ctx: RequestContext, accountId?: string, via?: Db): Promise<WxAccount> {
  const m = accountResource();
  const scope = await m.tenantConstraint(ctx);
  const [row] = await (via ?? m.db)
    .select(accountColumns())
    .from(m.table)
    .where(and(scope, accountId ? eq(m.cols.id, accountId) : undefined))
    .orderBy(asc(m.cols.id))
    .limit(1);
  if (!row) {
    if (accountId) throw new TextError(404, { zh: '公众号账号不存在', en: 'No such public account' });
    throw new TextError(400, WX_NO_ACCOUNT, { configure: 'wxAccount' });
  }
  const acct = asAccount(row as Row);
  if (!acct.appSecret)
    throw new TextError(
      400,
      {
        zh: `公众号“${acct.name}”尚未填写 AppSecret:请在“公众号账号”中补充`,
        en: `The public account “${acct.name}” has no AppSecret: add it under “Public accounts”`,
      },
      { configure: 'wxAccount.appSecret' },
    );
  return acct;
}

/** The live account WeChat's callback names by its AppID (whichever tenant's), or undefined. */
export async function accountByAppId(db: Db, appId: string): Promise<WxAccount | undefined> {
  const m = accountResource();
  const [row] = await db
    .select(accountColumns())
    .from(m.table)
    .where(and(eq(m.cols.appId, appId), ...liveRows(m)))
    .limit(1);
  return row ? asAccount(row as Row) : undefined;
}

/** Whether another tenant's live account already has this AppID (a callback must name one account). */
export async function appIdTakenElsewhere(db: Db, tenantId: string, appId: string): Promise<boolean> {
  const m = accountResource();
  const rows = await db
    .select({ tenantId: m.cols.tenantId })
    .from(m.table)
    .where(and(eq(m.cols.appId, appId), ...liveRows(m)) as SQL);
  return rows.some((r) => String(r.tenantId) !== tenantId);
}
