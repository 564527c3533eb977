import {
  type Text2,
  utf8Bytes,
  WX_DIRECTION,
  WX_ERRORS,
  WX_REPLY_KIND,
  type WxMenu,
  type WxReplyRule,
  wxButtonName,
  wxKeywordClash,
  wxMenuClean,
  wxMenuErrorButton,
  wxMenuProblem,
  wxReplyFor,
  wxReplyOpen,
} from '@smart/contracts';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import type { MountedResource, ResourceHooks, Row } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { mountedResource } from '../../platform/crud/refs';
import { insertRows, transaction } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { FieldInputError, TextError } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { accountFor, appIdTakenElsewhere } from './accounts';
import { WechatError, wechatClient, wxRefusal } from './client';
import { materialHooks } from './materials';
import { startSync } from './sync';

/**
 * The public account's resources on the engine (spec §7 dfem-hope-wx): accounts, the custom menu (`list`,
 * `release`), auto-replies (`page`, `add`, `update`, `del/{id}`, `enable`, `test`), followers (`page`,
 * `synchron`, `remark`) and messages (`page`). Every call is the engine's or an endpoint of the binding —
 * its permission code, the caller's row constraint, the one write path —; what goes to WeChat goes first
 * through the one client (client.ts), and is stored only once WeChat accepted it.
 */

const optionalId = idString.optional();

// ---- accounts ------------------------------------------------------------------------------------------

function accountHooks(base: string): ResourceHooks {
  return {
    async beforeWrite(ctx, record, mode, _id, original) {
      if (mode === 'create' && !record.appSecret)
        throw new FieldInputError('appSecret', { zh: '请填写 AppSecret', en: 'Enter the AppSecret' });
      const appId = String(record.appId ?? original?.appId ?? '');
      if (appId && (await appIdTakenElsewhere(mountedResource('wxAccount').db, ctx.tenantId, appId)))
        throw new FieldInputError('appId', {
          zh: '该 AppID 已被其他单位的公众号账号使用',
          en: 'This AppID is already used by another organisation’s account',
        });
    },
    // a new secret: the cached access token was the old secret's
    afterChange(_ctx, changes) {
      for (const c of changes) if (c.record.appSecret) wechatClient(base).forget(String(c.row.appId));
    },
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'clearQuota',
        codeSuffix: '_clearQuota',
        query: z.object({}).strict(),
        body: z.object({ id: optionalId }).strict(),
        async handler({ ctx, body }) {
          const acct = await accountFor(ctx, body.id);
          try {
            await wechatClient(base).call(acct, 'POST', 'cgi-bin/clear_quota', { appid: acct.appId });
          } catch (e) {
            throw wxRefusal(e);
          }
          return true;
        },
      }),
    ],
  };
}

// ---- the custom menu -----------------------------------------------------------------------------------

/** `button[1].sub_button[0].name` → 第2个菜单的第1个子菜单 */
function buttonAt(path: string): Text2 | undefined {
  const m = /^button\[(\d+)\](?:\.sub_button\[(\d+)\])?/.exec(path);
  if (!m) return undefined;
  return wxButtonName(Number(m[1]), m[2] === undefined ? undefined : Number(m[2]));
}

function menuHooks(base: string): ResourceHooks {
  return {
    listAliases: ['list'],
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'release',
        codeSuffix: '_release',
        query: z.object({}).strict(),
        body: z.object({ accountId: optionalId, button: z.unknown() }).strict(),
        async handler({ ctx, resource, scope, body }) {
          const problem = wxMenuProblem({ button: body.button });
          if (problem) throw new FieldInputError(problem.path, problem.message);
          const menu = wxMenuClean({ button: body.button } as WxMenu);
          const acct = await accountFor(ctx, body.accountId);
          const text = JSON.stringify(menu);
          try {
            await wechatClient(base).call(acct, 'POST', 'cgi-bin/menu/create', text);
          } catch (e) {
            const path = e instanceof WechatError ? wxMenuErrorButton(menu, e.errcode) : null;
            throw wxRefusal(e, path ? buttonAt(path) : undefined, path ? { path } : {});
          }
          // WeChat took it: the account's menu is now this one
          const releaseTime = formatDateTime(new Date());
          return transaction(resource.db, async (tx) => {
            const [was] = await tx
              .select({ id: resource.cols.id })
              .from(resource.table)
              .where(and(scope, eq(resource.cols.accountId, acct.id)))
              .orderBy(desc(resource.cols.id))
              .limit(1);
            if (was) return resource.patch(ctx, tx, String(was.id), { menuJson: text, releaseTime }, scope);
            const [w] = await insertRows(
              resource,
              ctx,
              tx,
              [{ accountId: acct.id, menuJson: text, releaseTime }],
              {
                answer: true,
              },
            );
            return w.row;
          });
        },
      }),
    ],
  };
}

// ---- auto-replies --------------------------------------------------------------------------------------

const clash = (keyword: string) =>
  new TextError(409, {
    zh: `关键词“${keyword}”已被另一条启用的关键词回复使用,请修改关键词或先停用那条规则`,
    en: `The keyword “${keyword}” is already claimed by another enabled keyword rule; change it or disable that rule first`,
  });

/** The enabled rules of an account, in the order the matcher prefers them (the oldest first). */
async function rulesOf(m: MountedResource, ctx: RequestContext, accountId: string, via?: Db) {
  const rows = await (via ?? m.db)
    .select({
      id: m.cols.id,
      kind: m.cols.kind,
      keywords: m.cols.keywords,
      matchMode: m.cols.matchMode,
      enabled: m.cols.enabled,
      replyContent: m.cols.replyContent,
    })
    .from(m.table)
    .where(and(await m.tenantConstraint(ctx), eq(m.cols.accountId, accountId), eq(m.cols.enabled, 1)))
    .orderBy(asc(m.cols.id));
  return rows.map((r) => ({
    id: String(r.id),
    kind: String(r.kind),
    keywords: r.keywords === null ? null : String(r.keywords),
    matchMode: String(r.matchMode ?? ''),
    enabled: Number(r.enabled),
    replyContent: String(r.replyContent ?? ''),
  }));
}

async function checkClash(
  m: MountedResource,
  ctx: RequestContext,
  rule: WxReplyRule & { accountId: string },
  via?: Db,
) {
  if (String(rule.kind) !== WX_REPLY_KIND.keyword || Number(rule.enabled ?? 1) !== 1) return;
  const taken = wxKeywordClash(rule, await rulesOf(m, ctx, rule.accountId, via));
  if (taken) throw clash(taken);
}

function autoReplyHooks(): ResourceHooks {
  const m = () => mountedResource('wxAutoReply');
  return {
    submitAliases: ['add'],
    updatePath: 'update',
    removeRoutes: [{ method: 'POST', path: 'del/{id}' }],
    async beforeWrite(ctx, record, _mode, id, original) {
      const v = (k: string) => (Object.hasOwn(record, k) ? record[k] : original?.[k]);
      await checkClash(m(), ctx, {
        id: id ?? '',
        accountId: String(v('accountId')),
        kind: String(v('kind')),
        keywords: v('keywords') as string,
        matchMode: v('matchMode') as string,
        enabled: v('enabled') as number,
      });
    },
    // The check above reads what is committed: two submits (or enables) claiming one keyword at once would
    // each pass it. In the write's transaction, the account's keyword rules are written one transaction at
    // a time (an advisory lock per account), and checked again once the lock is held: by then the other's
    // rule is committed and seen, and the second write is refused.
    async afterChange(ctx, changes, tx) {
      const claims = changes.filter(
        (c) => String(c.row.kind) === WX_REPLY_KIND.keyword && Number(c.row.enabled) === 1,
      );
      const accounts = [...new Set(claims.map((c) => String(c.row.accountId)))].sort();
      for (const a of accounts)
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`wx_reply:${a}`}))`);
      for (const c of claims)
        await checkClash(
          m(),
          ctx,
          {
            id: String(c.row.id),
            accountId: String(c.row.accountId),
            kind: String(c.row.kind),
            keywords: c.row.keywords as string,
            enabled: 1,
          },
          tx,
        );
    },
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'enable',
        codeSuffix: '_enable',
        query: z.object({}).strict(),
        body: z
          .object({ id: idString, enabled: z.union([z.literal(0), z.literal(1), z.enum(['0', '1'])]) })
          .strict(),
        handler: ({ ctx, resource, scope, body }) =>
          transaction(resource.db, (tx) =>
            resource.patch(
              ctx,
              tx,
              body.id,
              async (row: Row) => {
                const enabled = Number(body.enabled);
                if (enabled === 1)
                  await checkClash(
                    resource,
                    ctx,
                    {
                      id: String(row.id),
                      accountId: String(row.accountId),
                      kind: String(row.kind),
                      keywords: row.keywords as string,
                      enabled: 1,
                    },
                    tx,
                  );
                return { enabled };
              },
              scope,
            ),
          ),
      }),
      endpoint({
        method: 'GET',
        path: 'test',
        codeSuffix: ['', '_test'],
        query: z
          .object({
            text: z.string().max(600).optional(),
            event: z.literal('subscribe').optional(),
            accountId: optionalId,
          })
          .strict()
          .refine((q) => (q.text === undefined) !== (q.event === undefined), { path: ['text'] }),
        async handler({ ctx, resource, query }) {
          const acct = await accountFor(ctx, query.accountId);
          const rules = await rulesOf(resource, ctx, acct.id);
          const hit = wxReplyFor(rules, query.event ? { event: 'subscribe' } : { text: query.text ?? '' });
          return hit
            ? { hit: true, ruleId: hit.id, kind: hit.kind, keywords: hit.keywords, reply: hit.replyContent }
            : { hit: false, ruleId: null, kind: null, keywords: null, reply: null };
        },
      }),
    ],
  };
}

/** The reply an account gives to a subscription or a text (the callback's passive reply), or undefined. */
export async function replyFor(
  ctx: RequestContext,
  accountId: string,
  input: { event: 'subscribe' } | { text: string },
) {
  const rules = await rulesOf(mountedResource('wxAutoReply'), ctx, accountId);
  return wxReplyFor(rules, input)?.replyContent ?? undefined;
}

// ---- followers -----------------------------------------------------------------------------------------

function userHooks(base: string): ResourceHooks {
  return {
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'synchron',
        codeSuffix: '_synchron',
        query: z.object({}).strict(),
        body: z.object({ accountId: optionalId, restart: z.boolean().optional() }).strict(),
        async handler({ req, ctx, body }) {
          const acct = await accountFor(ctx, body.accountId);
          await startSync(mountedResource('wxAccount').db, ctx, acct, base, body.restart ?? false, req.log);
          return syncProgress(await accountFor(ctx, acct.id));
        },
      }),
      endpoint({
        method: 'GET',
        path: 'synchron/progress',
        codeSuffix: ['', '_synchron'],
        query: z.object({ accountId: optionalId }).strict(),
        handler: async ({ ctx, query }) => syncProgress(await accountFor(ctx, query.accountId)),
      }),
      endpoint({
        method: 'POST',
        path: 'tag',
        codeSuffix: '_tag',
        query: z.object({}).strict(),
        body: z
          .object({
            ids: z.array(idString).min(1).max(50),
            tagName: z
              .string()
              .trim()
              .min(1)
              .refine((t) => utf8Bytes(t) <= 30, { message: 'at most 30 bytes' }),
          })
          .strict(),
        async handler({ ctx, resource, scope, body }) {
          const rows = await resource.db
            .select({
              id: resource.cols.id,
              accountId: resource.cols.accountId,
              openid: resource.cols.openid,
              tagIds: resource.cols.tagIds,
            })
            .from(resource.table)
            .where(and(scope, inArray(resource.cols.id, body.ids)));
          if (rows.length !== new Set(body.ids).size)
            throw new TextError(404, { zh: '粉丝不存在', en: 'No such follower' });
          const accounts = new Set(rows.map((r) => String(r.accountId)));
          if (accounts.size !== 1)
            throw new TextError(400, {
              zh: '一次只能为同一个公众号的粉丝打标签',
              en: 'Tag followers of one account at a time',
            });
          const acct = await accountFor(ctx, [...accounts][0]);
          const client = wechatClient(base);
          let tagId: number;
          try {
            const { tags } = await client.call<{ tags: { id: number; name: string }[] }>(
              acct,
              'GET',
              'cgi-bin/tags/get',
            );
            const known = tags.find((t) => t.name === body.tagName);
            tagId =
              known?.id ??
              (
                await client.call<{ tag: { id: number } }>(acct, 'POST', 'cgi-bin/tags/create', {
                  tag: { name: body.tagName },
                })
              ).tag.id;
            await client.call(acct, 'POST', 'cgi-bin/tags/members/batchtagging', {
              openid_list: rows.map((r) => r.openid),
              tagid: tagId,
            });
          } catch (e) {
            throw wxRefusal(e);
          }
          await transaction(resource.db, async (tx) => {
            for (const r of rows) {
              const had = String(r.tagIds ?? '')
                .split(',')
                .filter(Boolean);
              if (!had.includes(String(tagId)))
                await resource.patch(
                  ctx,
                  tx,
                  String(r.id),
                  { tagIds: [...had, String(tagId)].join(',') },
                  scope,
                );
            }
          });
          return { tagId, tagName: body.tagName };
        },
      }),
      endpoint({
        method: 'POST',
        path: 'remark',
        codeSuffix: '_remark',
        query: z.object({}).strict(),
        body: z.object({ id: idString, remark: z.string().max(30) }).strict(),
        async handler({ ctx, resource, scope, body }) {
          const [row] = await resource.db
            .select({
              id: resource.cols.id,
              accountId: resource.cols.accountId,
              openid: resource.cols.openid,
            })
            .from(resource.table)
            .where(and(scope, eq(resource.cols.id, body.id)));
          if (!row) throw new TextError(404, { zh: '粉丝不存在', en: 'No such follower' });
          const acct = await accountFor(ctx, String(row.accountId));
          try {
            await wechatClient(base).call(acct, 'POST', 'cgi-bin/user/info/updateremark', {
              openid: row.openid,
              remark: body.remark,
            });
          } catch (e) {
            throw wxRefusal(e);
          }
          return transaction(resource.db, (tx) =>
            resource.patch(ctx, tx, body.id, { remark: body.remark }, scope),
          );
        },
      }),
    ],
  };
}

// ---- messages -----------------------------------------------------------------------------------------

/**
 * `POST wxMsg/reply` `{ id, content }`: a customer-service text to the sender of message `id`, offered only
 * within WeChat's 48 hours after the follower last wrote (checked here from the kept messages before WeChat is
 * asked; WeChat's own 45015 is worded the same), sent through `message/custom/send`, and kept as a reply once
 * WeChat took it.
 */
function msgHooks(base: string): ResourceHooks {
  return {
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'reply',
        codeSuffix: '_reply',
        query: z.object({}).strict(),
        body: z.object({ id: idString, content: z.string().trim().min(1).max(600) }).strict(),
        async handler({ ctx, resource: m, scope, body }) {
          const [msg] = await m.db
            .select({ accountId: m.cols.accountId, openid: m.cols.openid })
            .from(m.table)
            .where(and(scope, eq(m.cols.id, body.id)));
          if (!msg) throw new TextError(404, { zh: '消息不存在', en: 'No such message' });
          const acct = await accountFor(ctx, String(msg.accountId));
          const [last] = await m.db
            .select({ at: m.cols.msgTime })
            .from(m.table)
            .where(
              and(
                scope,
                eq(m.cols.accountId, acct.id),
                eq(m.cols.openid, String(msg.openid)),
                eq(m.cols.direction, WX_DIRECTION.received),
              ),
            )
            .orderBy(desc(m.cols.msgTime))
            .limit(1);
          if (!wxReplyOpen(last?.at as Date | null | undefined))
            throw new TextError(409, WX_ERRORS[45015], { errcode: 45015, window: false });
          try {
            await wechatClient(base).call(acct, 'POST', 'cgi-bin/message/custom/send', {
              touser: msg.openid,
              msgtype: 'text',
              text: { content: body.content },
            });
          } catch (e) {
            throw wxRefusal(e);
          }
          const [w] = await transaction(m.db, (tx) =>
            insertRows(
              m,
              ctx,
              tx,
              [
                {
                  accountId: acct.id,
                  openid: msg.openid,
                  direction: WX_DIRECTION.replied,
                  msgType: 'text',
                  content: body.content,
                  msgTime: formatDateTime(new Date()),
                },
              ],
              { answer: true },
            ),
          );
          return w.row;
        },
      }),
    ],
  };
}

const syncProgress = (a: {
  id: string;
  syncState: string | null;
  syncDone: number;
  syncTotal: number | null;
}) => ({
  accountId: a.id,
  state: a.syncState,
  done: a.syncDone,
  total: a.syncTotal,
});

/**
 * `GET wxMaterial/count?accountId=`: how many permanent materials of each type the account holds on WeChat
 * (`material/get_materialcount`), for the materials screen's usage against WeChat's quotas.
 */
function withMaterialCount(hooks: ResourceHooks, base: string): ResourceHooks {
  const count = endpoint({
    method: 'GET',
    path: 'count',
    codeSuffix: ['', '_view'],
    query: z.object({ accountId: optionalId }).strict(),
    async handler({ ctx, query }) {
      const acct = await accountFor(ctx, query.accountId);
      try {
        const c = await wechatClient(base).call<Record<string, number>>(
          acct,
          'GET',
          'cgi-bin/material/get_materialcount',
        );
        return {
          image: Number(c.image_count ?? 0),
          voice: Number(c.voice_count ?? 0),
          video: Number(c.video_count ?? 0),
          news: Number(c.news_count ?? 0),
        };
      } catch (e) {
        throw wxRefusal(e);
      }
    },
  });
  return { ...hooks, endpoints: [...(hooks.endpoints ?? []), count] };
}

/** The public account's hooks, by resource key. */
export function wechatMpHooks(base: string): Record<string, ResourceHooks> {
  return {
    wxAccount: accountHooks(base),
    wxMenu: menuHooks(base),
    wxAutoReply: autoReplyHooks(),
    wxUser: userHooks(base),
    wxMsg: msgHooks(base),
    wxMaterial: withMaterialCount(materialHooks(base), base),
  };
}
