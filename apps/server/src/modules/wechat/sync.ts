import { WX_SYNC } from '@smart/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type RequestContext, serverActor } from '../../platform/auth/context';
import { mountedResource } from '../../platform/crud/refs';
import { insertRows, transaction, updateRow } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { TextError } from '../../platform/http/errors';
import { enqueue, registerJob, runDueJobs } from '../../platform/outbox';
import { accountFor, accountResource, type WxAccount } from './accounts';
import { WechatError, wechatClient } from './client';

/**
 * 同步粉丝 as a job of the outbox: `user/get` pages the account's followers by `next_openid` (10 000 a page),
 * `user/info/batchget` fetches their details 100 at a time, and each hundred is written through the followers'
 * write path (new ones added, changed ones updated) with the progress — n of total — on the account
 * (`syncDone`, `syncTotal`, `syncState`). After each page the account keeps the page's `next_openid`, so a run
 * that stops (an error, a quota, a server that died: its lease runs out and a poller takes it up) resumes from
 * the page it was on. `POST wxUser/synchron` starts or resumes it; the account's row (and its answer) is the
 * progress.
 */

const PAGE = 10_000;
const BATCH = 100;
const KIND = 'wxUserSync';

interface SyncJob {
  tenantId: string;
  accountId: string;
  userId: string;
  base: string;
}

/** The server acting for the person who asked (their stamps on what it writes), within their tenant. */
export const wxActor = (tenantId: string, userId = '0'): RequestContext =>
  serverActor(tenantId, 'wechat', userId);

interface UserInfo {
  subscribe?: number;
  openid: string;
  nickname?: string;
  remark?: string;
  subscribe_time?: number;
  tagid_list?: number[];
  unionid?: string;
}

const secondsToText = (s: number | undefined) => (s ? formatDateTime(new Date(s * 1000)) : null);

/** Writes a hundred followers' details through the write path: added when new, updated when changed. */
export async function storeFollowers(tx: Db, ctx: RequestContext, accountId: string, infos: UserInfo[]) {
  const m = mountedResource('wxUser');
  const scope = await m.tenantConstraint(ctx);
  const openids = infos.map((i) => i.openid);
  const existing = openids.length
    ? await tx
        .select({
          id: m.cols.id,
          openid: m.cols.openid,
          nickname: m.cols.nickname,
          remark: m.cols.remark,
          subscribe: m.cols.subscribe,
          tagIds: m.cols.tagIds,
        })
        .from(m.table)
        .where(and(scope, eq(m.cols.accountId, accountId), inArray(m.cols.openid, openids)))
    : [];
  const byOpenid = new Map(existing.map((r) => [String(r.openid), r]));
  const fresh: Record<string, unknown>[] = [];
  for (const i of infos) {
    const record = {
      accountId,
      openid: i.openid,
      nickname: i.nickname ?? null,
      remark: i.remark ?? '',
      subscribe: i.subscribe === 0 ? 0 : 1,
      subscribeTime: secondsToText(i.subscribe_time),
      tagIds: (i.tagid_list ?? []).join(','),
      unionid: i.unionid ?? null,
    };
    const was = byOpenid.get(i.openid);
    if (!was) fresh.push(record);
    else if (
      String(was.nickname ?? '') !== String(record.nickname ?? '') ||
      String(was.remark ?? '') !== record.remark ||
      Number(was.subscribe) !== record.subscribe ||
      String(was.tagIds ?? '') !== record.tagIds
    ) {
      const { accountId: _a, openid: _o, ...changed } = record;
      await updateRow(m, ctx, tx, String(was.id), changed, scope);
    }
  }
  if (fresh.length) await insertRows(m, ctx, tx, fresh);
}

async function progress(tx: Db, ctx: RequestContext, accountId: string, set: Record<string, unknown>) {
  const a = accountResource();
  await a.patch(ctx, tx, accountId, set, await a.tenantConstraint(ctx));
}

async function runSync(job: SyncJob, db: Db, log?: FastifyBaseLogger) {
  const ctx = wxActor(job.tenantId, job.userId);
  const client = wechatClient(job.base);
  let acct: WxAccount;
  try {
    acct = await accountFor(ctx, job.accountId);
  } catch {
    return; // the account was removed meanwhile: nothing to do
  }
  // a run whose account no longer says running (it ended, and this is a late copy of its job): nothing to do
  if (acct.syncState !== WX_SYNC.running) return;
  // a resumed run starts again at the page it was on: the count of the pages written before it
  let done = Math.floor(acct.syncDone / PAGE) * PAGE;
  let next = acct.syncNextOpenid ?? '';
  let total = acct.syncTotal ?? 0;
  try {
    for (;;) {
      const page = await client.call<{
        total: number;
        count: number;
        data?: { openid: string[] };
        next_openid: string;
      }>(acct, 'GET', 'cgi-bin/user/get', undefined, next ? { next_openid: next } : {});
      total = Number(page.total ?? 0);
      const openids = page.data?.openid ?? [];
      for (let i = 0; i < openids.length; i += BATCH) {
        const slice = openids.slice(i, i + BATCH);
        const answer = await client.call<{ user_info_list: UserInfo[] }>(
          acct,
          'POST',
          'cgi-bin/user/info/batchget',
          {
            user_list: slice.map((openid) => ({ openid, lang: 'zh_CN' })),
          },
        );
        done += slice.length;
        await transaction(db, async (tx) => {
          await storeFollowers(tx, ctx, acct.id, answer.user_info_list ?? []);
          await progress(tx, ctx, acct.id, { syncDone: done, syncTotal: total });
        });
      }
      // the page is written: a run that stops from here on resumes after it
      const last = openids.length < PAGE || !page.next_openid;
      await transaction(db, (tx) =>
        progress(
          tx,
          ctx,
          acct.id,
          last ? { syncState: WX_SYNC.done, syncNextOpenid: '' } : { syncNextOpenid: page.next_openid },
        ),
      );
      if (last) return;
      next = page.next_openid;
    }
  } catch (e) {
    const text = e instanceof WechatError ? `${e.errcode} ${e.errmsg}` : (e as Error).message;
    log?.warn({ err: text, accountId: acct.id }, 'follower synchronisation interrupted');
    await transaction(db, (tx) =>
      progress(tx, ctx, acct.id, { syncState: WX_SYNC.interrupted, syncError: text.slice(0, 500) }),
    );
  }
}

registerJob<SyncJob>({
  kind: KIND,
  // a run of a large account takes minutes; past this a poller resumes it from its page
  leaseMs: 30 * 60_000,
  attempts: 3,
  run: (job, jctx) => runSync(job.payload, jctx.db, jctx.log),
});

/**
 * Starts (or, after an interruption, resumes — `restart` starts over) the account's synchronisation: marks it
 * running and writes its job in one transaction, then has the outbox run it in the background. A second
 * start while one runs is a 409.
 */
export async function startSync(
  db: Db,
  ctx: RequestContext,
  acct: WxAccount,
  base: string,
  restart: boolean,
  log?: FastifyBaseLogger,
) {
  await transaction(db, async (tx) => {
    const a = accountResource();
    await a.patch(
      ctx,
      tx,
      acct.id,
      (row) => {
        if (String(row.syncState ?? '') === WX_SYNC.running)
          throw new TextError(409, {
            zh: '粉丝同步正在进行中,请等待其完成',
            en: 'A follower synchronisation is already running; wait for it to finish',
          });
        const resume = !restart && String(row.syncState ?? '') === WX_SYNC.interrupted;
        return {
          syncState: WX_SYNC.running,
          syncError: null,
          ...(resume ? {} : { syncDone: 0, syncTotal: null, syncNextOpenid: '' }),
        };
      },
      await a.tenantConstraint(ctx),
    );
    await enqueue<SyncJob>(
      tx,
      KIND,
      { tenantId: ctx.tenantId, accountId: acct.id, userId: ctx.userId, base },
      {
        tenantId: ctx.tenantId,
      },
    );
  });
  // the job is due now: run it in the background (a poller would take it up within seconds anyway)
  void runDueJobs(db, log).catch((err) => log?.error({ err }, 'follower synchronisation'));
}
