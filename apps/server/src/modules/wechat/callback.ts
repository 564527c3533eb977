import { randomBytes } from 'node:crypto';
import { WX_DIRECTION } from '@smart/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import { mountedResource } from '../../platform/crud/refs';
import { insertRows, transaction } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { ApiError, isUniqueViolation } from '../../platform/http/errors';
import { accountByAppId, type WxAccount } from './accounts';
import { sha1Signature, signatureMatches, wxDecrypt, wxEncrypt } from './crypto';
import { replyFor } from './mp';
import { wxActor } from './sync';
import { field, parseWxXml, type WxXml, wxXml } from './xml';

/**
 * WeChat's callback of a public account, `/api/dfem-hope-wx/open/{appId}` (the URL configured in the account's
 * 服务器配置), reachable without a token — WeChat signs it instead:
 * - GET: the server check — `signature` (sha1 of the sorted token, timestamp and nonce) right, `echostr`
 *   echoed; wrong, refused.
 * - POST: a message or an event, in plain mode or safe mode (`encrypt_type=aes`: `msg_signature` checked and
 *   the body decrypted with the EncodingAESKey). It is kept (消息, `wxMsg`), once: a MsgId (or, for an event,
 *   its sender, time and event) seen before is answered `success` and nothing more, so WeChat's retries are
 *   answered once. A subscription adds (or revives) the follower, an unsubscription marks them unsubscribed.
 *   The passive reply — the auto-reply the rules give — is answered at once, well within WeChat's 5 seconds,
 *   encrypted again in safe mode; no reply is `success`.
 * Its rows are written through the resources' write path as the account's tenant (the server acting, no person).
 */

const Sig = z.object({
  signature: z.string().max(64),
  timestamp: z.string().regex(/^\d{1,12}$/),
  nonce: z.string().regex(/^[\w-]{1,64}$/),
});
const Check = Sig.extend({ echostr: z.string().min(1).max(256) });
const Post = Sig.extend({
  openid: z.string().max(64).optional(),
  encrypt_type: z.enum(['aes', 'raw']).optional(),
  msg_signature: z.string().max(64).optional(),
});

const refused = () => new ApiError(403, 'forbidden');

async function accountOf(req: FastifyRequest): Promise<WxAccount> {
  const { appId } = req.params as { appId: string };
  if (!/^wx[0-9a-f]{16}$/.test(appId)) throw new ApiError(404, 'notFound');
  const acct = await accountByAppId(req.server.deps.db, appId);
  if (!acct) throw new ApiError(404, 'notFound');
  return acct;
}

const plain = (reply: FastifyReply, text: string) => reply.type('text/plain; charset=utf-8').send(text);

export const callbackRoutes: FastifyPluginAsync = async (app) => {
  // WeChat posts XML; read as text here only (this plugin's scope), at most 1 MB
  for (const type of ['text/xml', 'application/xml', 'text/plain'])
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );

  app.get('/open/:appId', { config: { public: true } }, async (req, reply) => {
    const acct = await accountOf(req);
    const q = Check.safeParse(req.query);
    if (!q.success || !signatureMatches(q.data.signature, acct.token, q.data.timestamp, q.data.nonce))
      throw refused();
    return plain(reply, q.data.echostr);
  });

  app.post('/open/:appId', { config: { public: true } }, async (req, reply) => {
    const acct = await accountOf(req);
    const q = Post.safeParse(req.query);
    if (!q.success || !signatureMatches(q.data.signature, acct.token, q.data.timestamp, q.data.nonce))
      throw refused();
    const body = typeof req.body === 'string' ? req.body : '';
    const outer = parseWxXml(body);
    if (!outer) throw new ApiError(400, 'badRequest');
    const safe = q.data.encrypt_type === 'aes';
    let msg: WxXml | null = outer;
    if (safe) {
      const encrypted = field(outer, 'Encrypt');
      if (
        !acct.aesKey ||
        !encrypted ||
        !signatureMatches(q.data.msg_signature, acct.token, q.data.timestamp, q.data.nonce, encrypted)
      )
        throw refused();
      const text = wxDecrypt(acct.aesKey, acct.appId, encrypted);
      msg = text === null ? null : parseWxXml(text);
      if (!msg) throw refused();
    }
    const answer = await take(req.server.deps.db, acct, msg);
    if (!answer) return plain(reply, 'success');
    const xml = wxXml({
      ToUserName: field(msg, 'FromUserName'),
      FromUserName: field(msg, 'ToUserName'),
      CreateTime: Math.floor(Date.now() / 1000),
      MsgType: 'text',
      Content: answer,
    });
    reply.type('application/xml; charset=utf-8');
    if (!safe || !acct.aesKey) return reply.send(xml);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(8).toString('hex');
    const encrypted = wxEncrypt(acct.aesKey, acct.appId, xml);
    return reply.send(
      wxXml({
        Encrypt: encrypted,
        MsgSignature: sha1Signature(acct.token, timestamp, nonce, encrypted),
        TimeStamp: timestamp,
        Nonce: nonce,
      }),
    );
  });
};

/** what a message says, as kept: its text, or the event and its key, or its media and place */
function contentOf(msg: WxXml): string {
  const type = field(msg, 'MsgType');
  if (type === 'text') return field(msg, 'Content');
  if (type === 'event') return [field(msg, 'Event'), field(msg, 'EventKey')].filter(Boolean).join(' ');
  if (type === 'location')
    return `${field(msg, 'Label')} (${field(msg, 'Location_X')},${field(msg, 'Location_Y')})`;
  if (type === 'link') return `${field(msg, 'Title')} ${field(msg, 'Url')}`;
  return field(msg, 'PicUrl') || field(msg, 'MediaId');
}

/**
 * Keeps a message once and answers its passive reply (undefined: none, or a repeat). A repeat is found by its
 * dedup key before anything is written, and a repeat racing the first is stopped by the key's unique index.
 */
async function take(db: Db, acct: WxAccount, msg: WxXml): Promise<string | undefined> {
  const ctx = wxActor(acct.tenantId);
  const m = mountedResource('wxMsg');
  const openid = field(msg, 'FromUserName').slice(0, 64);
  const type = field(msg, 'MsgType').slice(0, 32);
  const event = field(msg, 'Event').slice(0, 64);
  const msgId = field(msg, 'MsgId').slice(0, 64);
  const created = Number(field(msg, 'CreateTime')) || Math.floor(Date.now() / 1000);
  if (!openid || !type) return undefined;
  const dedupKey = `${acct.id}:${msgId ? `m:${msgId}` : `e:${openid}:${created}:${event}`}`.slice(0, 160);
  const scope = await m.tenantConstraint(ctx);
  const [seen] = await db
    .select({ id: m.cols.id })
    .from(m.table)
    .where(and(scope, eq(m.cols.dedupKey, dedupKey)))
    .limit(1);
  if (seen) return undefined;
  const subscribe = type === 'event' && event === 'subscribe';
  const answer =
    type === 'event'
      ? subscribe
        ? await replyFor(ctx, acct.id, { event: 'subscribe' })
        : undefined
      : await replyFor(ctx, acct.id, { text: type === 'text' ? field(msg, 'Content') : '' });
  const msgTime = formatDateTime(new Date(created * 1000));
  try {
    await transaction(db, async (tx) => {
      const base = { accountId: acct.id, openid, msgTime };
      await insertRows(m, ctx, tx, [
        {
          ...base,
          direction: WX_DIRECTION.received,
          msgType: type,
          event: event || null,
          content: contentOf(msg).slice(0, 4000),
          msgId: msgId || null,
          dedupKey,
        },
        ...(answer
          ? [
              {
                ...base,
                direction: WX_DIRECTION.replied,
                msgType: 'text',
                content: answer,
                msgTime: formatDateTime(new Date()),
              },
            ]
          : []),
      ]);
      if (type === 'event' && (subscribe || event === 'unsubscribe'))
        await follow(tx, ctx, acct.id, openid, subscribe, msgTime);
    });
  } catch (e) {
    if (isUniqueViolation(e)) return undefined;
    throw e;
  }
  return answer;
}

/** a subscription adds or revives the follower; an unsubscription marks them unsubscribed */
async function follow(
  tx: Db,
  ctx: RequestContext,
  accountId: string,
  openid: string,
  on: boolean,
  at: string,
) {
  const u = mountedResource('wxUser');
  const scope = await u.tenantConstraint(ctx);
  const [was] = await tx
    .select({ id: u.cols.id })
    .from(u.table)
    .where(and(scope, eq(u.cols.accountId, accountId), eq(u.cols.openid, openid)))
    .limit(1);
  const set = on ? { subscribe: 1, subscribeTime: at } : { subscribe: 0 };
  if (was) await u.patch(ctx, tx, String(was.id), set, scope);
  else if (on) await insertRows(u, ctx, tx, [{ accountId, openid, remark: '', ...set }]);
}
