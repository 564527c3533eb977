import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { utf8Bytes, WX_MENU_LIMITS, WX_MENU_TYPES } from '@smart/contracts';
import { SandboxPublishing } from './publishing';

/**
 * The WeChat sandbox: a real HTTP server implementing the documented endpoints of WeChat's public-account
 * API (api.weixin.qq.com) this product uses, with WeChat's request and answer shapes and its error codes:
 * `cgi-bin/token` and `stable_token`, `menu/create|get|delete`, `user/get` (10 000 openids a page,
 * `next_openid`), `user/info/batchget` (at most 100), `user/info/updateremark`, `tags/get|create`,
 * `tags/members/batchtagging`, `message/custom/send` (the 48-hour window) and `clear_quota`. It keeps what it
 * is sent (`calls`, the menus, remarks, messages), and a test tells it to fail the way WeChat fails
 * (`fail(path, errcode)`: 40001, 40018, 45009, 45015 …; `expireTokens`). `npm start` runs one for the demo
 * account (WECHAT_SANDBOX=on); the API tests start their own. Nothing here is a stub of the product: the
 * product's one client talks HTTP to it exactly as it would to WeChat.
 */

export interface SandboxCall {
  method: string;
  /** without the leading slash: `cgi-bin/menu/create` */
  path: string;
  query: Record<string, string>;
  /** the body exactly as received */
  body: string;
  /** the app whose token (or appid) the call carried */
  appId?: string;
}

export interface SandboxFollower {
  openid: string;
  nickname: string;
  remark: string;
  subscribe_time: number;
  tagid_list: number[];
  /** when the user last wrote to the account (ms): custom messages may be sent for 48 hours after */
  lastActive?: number;
}

const ERRMSG: Record<number, string> = {
  0: 'ok',
  [-1]: 'system error',
  40001: 'invalid credential, access_token is invalid or not latest',
  40002: 'invalid grant_type',
  40003: 'invalid openid',
  40013: 'invalid appid',
  40016: 'invalid button size',
  40017: 'invalid button type',
  40018: 'invalid button name size',
  40019: 'invalid button key size',
  40023: 'invalid sub button size',
  40027: 'invalid sub button url size',
  40032: 'invalid openid list size',
  40125: 'invalid appsecret',
  41001: 'access_token missing',
  42001: 'access_token expired',
  43004: 'require subscribe',
  44002: 'empty post data',
  45009: 'reach max api daily quota limit',
  45015: 'response out of time limit or subscription is canceled',
  46003: 'menu no exist',
  47001: 'data format error',
  88000: 'without comment privilege',
};

const PAGE = 10_000;
const BATCH = 100;
const WINDOW_MS = 48 * 3_600_000;

export class WechatSandbox {
  url = '';
  /** every call received, in order */
  readonly calls: SandboxCall[] = [];
  /** the menu each app released last, as the JSON text it was sent */
  readonly menus = new Map<string, string>();
  /** custom messages sent, per app */
  readonly sent = new Map<string, unknown[]>();
  /** drafts, publishing, materials, article images and comments (publishing.ts) */
  readonly publishing = new SandboxPublishing();
  private readonly apps = new Map<string, string>();
  private readonly tokens = new Map<string, { appId: string; expires: number }>();
  private readonly followers = new Map<string, SandboxFollower[]>();
  private readonly tags = new Map<string, { id: number; name: string; count: number }[]>();
  private failures: { path: string; errcode: number; times: number; after: number }[] = [];
  private server?: Server;

  /** an app WeChat knows: its AppID and AppSecret */
  addApp(appId: string, secret: string) {
    this.apps.set(appId, secret);
    if (!this.followers.has(appId)) this.followers.set(appId, []);
    return this;
  }

  /** `n` followers of an app (openids in order, a nickname each), replacing those it had */
  setFollowers(appId: string, n: number, since = Date.UTC(2024, 0, 1) / 1000) {
    const list: SandboxFollower[] = [];
    for (let i = 0; i < n; i++)
      list.push({
        openid: openidOf(appId, i),
        nickname: `粉丝${i + 1}`,
        remark: '',
        subscribe_time: since + i * 60,
        tagid_list: [],
      });
    this.followers.set(appId, list);
    return list;
  }

  follower(appId: string, openid: string) {
    return this.followers.get(appId)?.find((f) => f.openid === openid);
  }

  /** the user wrote to the account just now (opens the 48-hour window for custom messages) */
  interacted(appId: string, openid: string, at = Date.now()) {
    const f = this.follower(appId, openid);
    if (f) f.lastActive = at;
  }

  /**
   * `times` calls of `path` (`cgi-bin/menu/create`; `*` any) answer `errcode`, after `after` more that succeed
   * (a synchronisation stopped halfway)
   */
  fail(path: string, errcode: number, times = 1, after = 0) {
    this.failures.push({ path: path.replace(/^\//, ''), errcode, times, after });
    return this;
  }

  /** every access token issued so far stops working (WeChat's 40001 on their next use) */
  expireTokens(appId?: string) {
    for (const [t, v] of this.tokens) if (!appId || v.appId === appId) this.tokens.delete(t);
  }

  /** calls of a path (`cgi-bin/token`) so far */
  callsOf(path: string) {
    return this.calls.filter((c) => c.path === path.replace(/^\//, ''));
  }

  reset() {
    this.calls.length = 0;
    this.failures = [];
  }

  async listen(port = 0, host = '127.0.0.1') {
    this.server = createServer((req, res) => {
      void this.handle(req, res).catch(() => {
        if (!res.headersSent) send(res, { errcode: -1, errmsg: ERRMSG[-1] });
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => resolve());
    });
    const addr = this.server.address() as AddressInfo;
    this.url = `http://${host}:${addr.port}`;
    return this;
  }

  async close() {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const u = new URL(req.url ?? '/', 'http://sandbox');
    const path = u.pathname.replace(/^\/+/, '');
    const query = Object.fromEntries(u.searchParams);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > 2 * 1024 * 1024) return send(res, err(47001));
      chunks.push(c as Buffer);
    }
    const raw = Buffer.concat(chunks);
    const body = raw.toString('utf8');
    const call: SandboxCall = { method: req.method ?? 'GET', path, query, body };
    this.calls.push(call);
    const forced = this.due(path);
    if (path === 'cgi-bin/token' || path === 'cgi-bin/stable_token') {
      if (forced) return send(res, this.forced(forced));
      return send(res, this.token(path, query, body, call));
    }
    const token = query.access_token;
    if (!token) return send(res, err(41001));
    const live = this.tokens.get(token);
    if (!live || live.expires < Date.now()) return send(res, err(40001));
    call.appId = live.appId;
    if (forced) return send(res, this.forced(forced));
    const json = () => {
      if (!body) return null;
      try {
        return JSON.parse(body) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    };
    const appId = live.appId;
    const followers = this.followers.get(appId) ?? [];
    switch (path) {
      case 'cgi-bin/menu/create': {
        const menu = json();
        if (!menu) return send(res, err(menu === null ? 44002 : 47001));
        const code = menuError(menu);
        if (code) return send(res, err(code));
        this.menus.set(appId, body);
        return send(res, err(0));
      }
      case 'cgi-bin/menu/get': {
        const menu = this.menus.get(appId);
        return send(res, menu ? { menu: JSON.parse(menu) } : err(46003));
      }
      case 'cgi-bin/menu/delete':
        this.menus.delete(appId);
        return send(res, err(0));
      case 'cgi-bin/user/get': {
        const next = query.next_openid ?? '';
        const from = next ? followers.findIndex((f) => f.openid === next) + 1 : 0;
        if (next && from === 0) return send(res, err(40003));
        const page = followers.slice(from, from + PAGE).map((f) => f.openid);
        return send(res, {
          total: followers.length,
          count: page.length,
          ...(page.length ? { data: { openid: page } } : {}),
          next_openid: page.length ? page[page.length - 1] : '',
        });
      }
      case 'cgi-bin/user/info/batchget': {
        const b = json();
        const list = b?.user_list;
        if (!Array.isArray(list) || list.length === 0 || list.length > BATCH) return send(res, err(40032));
        const user_info_list = list.map((x: { openid?: string }) => {
          const f = followers.find((y) => y.openid === x.openid);
          return f
            ? {
                subscribe: 1,
                openid: f.openid,
                nickname: f.nickname,
                language: 'zh_CN',
                subscribe_time: f.subscribe_time,
                remark: f.remark,
                groupid: 0,
                tagid_list: f.tagid_list,
                subscribe_scene: 'ADD_SCENE_QR_CODE',
              }
            : { subscribe: 0, openid: x.openid };
        });
        return send(res, { user_info_list });
      }
      case 'cgi-bin/user/info/updateremark': {
        const b = json();
        const f = followers.find((y) => y.openid === b?.openid);
        if (!f) return send(res, err(40003));
        const remark = String(b?.remark ?? '');
        if ([...remark].length > 30) return send(res, { errcode: 45071, errmsg: 'remark too long' });
        f.remark = remark;
        return send(res, err(0));
      }
      case 'cgi-bin/tags/get':
        return send(res, { tags: this.tags.get(appId) ?? [] });
      case 'cgi-bin/tags/create': {
        const name = String((json()?.tag as { name?: string } | undefined)?.name ?? '');
        if (!name || utf8Bytes(name) > 30) return send(res, { errcode: 45158, errmsg: 'tag name too long' });
        const tags = this.tags.get(appId) ?? [];
        const tag = { id: 100 + tags.length, name, count: 0 };
        tags.push(tag);
        this.tags.set(appId, tags);
        return send(res, { tag: { id: tag.id, name } });
      }
      case 'cgi-bin/tags/members/batchtagging': {
        const b = json();
        const tagid = Number(b?.tagid);
        if (!(this.tags.get(appId) ?? []).some((t) => t.id === tagid))
          return send(res, { errcode: 45159, errmsg: 'invalid tag id' });
        for (const openid of (b?.openid_list as string[] | undefined) ?? []) {
          const f = followers.find((y) => y.openid === openid);
          if (!f) return send(res, err(40003));
          if (!f.tagid_list.includes(tagid)) f.tagid_list.push(tagid);
        }
        return send(res, err(0));
      }
      case 'cgi-bin/message/custom/send': {
        const b = json();
        const f = followers.find((y) => y.openid === b?.touser);
        if (!f) return send(res, err(40003));
        if (!f.lastActive || Date.now() - f.lastActive > WINDOW_MS) return send(res, err(45015));
        const list = this.sent.get(appId) ?? [];
        list.push(b);
        this.sent.set(appId, list);
        return send(res, err(0));
      }
      case 'cgi-bin/clear_quota':
        this.failures = this.failures.filter((f) => f.errcode !== 45009);
        return send(res, err(0));
      default: {
        const answer = this.publishing.handle(appId, path, query, json, raw, req.headers['content-type']);
        if (Buffer.isBuffer(answer)) {
          res.setHeader('content-type', 'application/octet-stream');
          return res.end(answer);
        }
        if (answer !== undefined) return send(res, answer);
        res.statusCode = 404;
        return send(res, { errcode: 404, errmsg: 'not found' });
      }
    }
  }

  /** the failure this call of `path` answers, if any (one still waiting for its turn counts this call) */
  private due(path: string) {
    const f = this.failures.find((x) => x.times > 0 && (x.path === path || x.path === '*'));
    if (f && f.after > 0) {
      f.after--;
      return undefined;
    }
    return f;
  }

  private forced(f: { errcode: number; times: number }) {
    f.times--;
    this.failures = this.failures.filter((x) => x.times > 0);
    return err(f.errcode);
  }

  private token(path: string, query: Record<string, string>, body: string, call: SandboxCall) {
    let appid = query.appid;
    let secret = query.secret;
    let grant = query.grant_type;
    if (path === 'cgi-bin/stable_token') {
      try {
        const b = JSON.parse(body) as Record<string, string>;
        ({ appid, secret, grant_type: grant } = b);
      } catch {
        return err(47001);
      }
    }
    if (grant !== 'client_credential') return err(40002);
    if (!this.apps.has(appid)) return err(40013);
    if (this.apps.get(appid) !== secret) return err(40125);
    call.appId = appid;
    const access_token = randomBytes(48).toString('base64url');
    this.tokens.set(access_token, { appId: appid, expires: Date.now() + 7200_000 });
    return { access_token, expires_in: 7200 };
  }
}

/** the sandbox's `i`th follower of an app: 28 characters, as WeChat's openids are */
export const openidOf = (appId: string, i: number) => `o${appId.slice(2, 8)}${String(i).padStart(21, '0')}`;

const err = (errcode: number) => ({ errcode, errmsg: ERRMSG[errcode] ?? 'error' });

function send(res: ServerResponse, body: unknown) {
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

/** What WeChat itself refuses in a menu, by its error code (0: none). */
function menuError(menu: Record<string, unknown>): number {
  const buttons = menu.button;
  if (!Array.isArray(buttons) || buttons.length === 0 || buttons.length > WX_MENU_LIMITS.buttons)
    return 40016;
  for (const b of buttons as Record<string, unknown>[]) {
    if (utf8Bytes(String(b.name ?? '')) > WX_MENU_LIMITS.name || !b.name) return 40018;
    const subs = b.sub_button as Record<string, unknown>[] | undefined;
    if (Array.isArray(subs) && subs.length) {
      if (subs.length > WX_MENU_LIMITS.subButtons) return 40023;
      for (const s of subs) {
        if (utf8Bytes(String(s.name ?? '')) > WX_MENU_LIMITS.subName || !s.name) return 40018;
        const code = leafError(s);
        if (code) return code;
      }
    } else {
      const code = leafError(b);
      if (code) return code;
    }
  }
  return 0;
}

function leafError(b: Record<string, unknown>): number {
  if (!Object.hasOwn(WX_MENU_TYPES, String(b.type))) return 40017;
  if (b.key !== undefined && utf8Bytes(String(b.key)) > WX_MENU_LIMITS.key) return 40019;
  if (b.url !== undefined && utf8Bytes(String(b.url)) > WX_MENU_LIMITS.url) return 40027;
  return 0;
}
