import { type Text2, wxErrorText } from '@smart/contracts';
import type { Config } from '../../platform/config';
import { TextError } from '../../platform/http/errors';

/**
 * The one WeChat client: every call of the public account's API goes through `call`, to `WECHAT_API_BASE`
 * (WeChat's own, https://api.weixin.qq.com, by default; the sandbox's under `npm start` and in the tests).
 * - One access token per AppID, kept until shortly before it expires (`cgi-bin/stable_token`: the secret
 *   travels in the body, never in a URL a proxy might log).
 * - One refresh at a time per AppID (single flight): callers that find no token wait for the same request.
 * - A call answered 40001 / 42001 / 40014 (the token invalid or expired) drops that token, gets a new one
 *   once and is tried once more.
 * - Every other errcode is a `WechatError`, which `wxRefusal` words for people in Chinese and English.
 */

export class WechatError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
  ) {
    super(`WeChat ${errcode}: ${errmsg}`);
  }
}

/** What a call needs of an account: its AppID and AppSecret. */
export interface WxCredentials {
  appId: string;
  appSecret: string;
}

const TOKEN_ERRORS = new Set([40001, 40014, 42001]);
const DEFAULT_BASE = 'https://api.weixin.qq.com';
const TIMEOUT_MS = 10_000;

export class WechatClient {
  private readonly tokens = new Map<string, { token: string; secret: string; until: number }>();
  private readonly refreshing = new Map<string, Promise<string>>();

  constructor(readonly base: string) {}

  /** forgets an AppID's token (its secret changed) */
  forget(appId: string) {
    this.tokens.delete(appId);
  }

  /** the AppID's access token: the cached one, or one new one however many ask at once */
  async token(acct: WxCredentials): Promise<string> {
    const cached = this.tokens.get(acct.appId);
    if (cached && cached.secret === acct.appSecret && cached.until > Date.now()) return cached.token;
    const running = this.refreshing.get(acct.appId);
    if (running) return running;
    const fresh = this.fetchToken(acct).finally(() => this.refreshing.delete(acct.appId));
    this.refreshing.set(acct.appId, fresh);
    return fresh;
  }

  private async fetchToken(acct: WxCredentials): Promise<string> {
    const answer = await this.request(
      'POST',
      'cgi-bin/stable_token',
      {},
      {
        grant_type: 'client_credential',
        appid: acct.appId,
        secret: acct.appSecret,
        force_refresh: false,
      },
    );
    const token = String(answer.access_token ?? '');
    if (!token) throw new WechatError(-1, 'no access_token');
    const seconds = Math.max(60, Number(answer.expires_in ?? 7200));
    this.tokens.set(acct.appId, {
      token,
      secret: acct.appSecret,
      until: Date.now() + (seconds - 300) * 1000,
    });
    return token;
  }

  /**
   * Calls `path` (`cgi-bin/menu/create`) for the account: `body` sent as JSON (a string: sent as it is, byte
   * for byte; FormData: as multipart), `query` beside the token. Answers WeChat's JSON (a file WeChat sends as
   * itself: `{ file, contentType }`); throws a WechatError for an errcode.
   */
  async call<T = Record<string, unknown>>(
    acct: WxCredentials,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    query: Record<string, string> = {},
  ): Promise<T> {
    let token = await this.token(acct);
    try {
      return (await this.request(method, path, { ...query, access_token: token }, body)) as T;
    } catch (e) {
      if (!(e instanceof WechatError) || !TOKEN_ERRORS.has(e.errcode)) throw e;
      // the token died early (another server refreshed it, WeChat revoked it): one new token, one more try
      if (this.tokens.get(acct.appId)?.token === token) this.tokens.delete(acct.appId);
      token = await this.token(acct);
      return (await this.request(method, path, { ...query, access_token: token }, body)) as T;
    }
  }

  private async request(
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, string>,
    body?: unknown,
  ): Promise<Record<string, unknown>> {
    const url = `${this.base.replace(/\/+$/, '')}/${path}?${new URLSearchParams(query)}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
        ...(body instanceof FormData
          ? { body } // multipart: fetch writes its boundary
          : body !== undefined
            ? {
                headers: { 'content-type': 'application/json; charset=utf-8' },
                body: typeof body === 'string' ? body : JSON.stringify(body),
              }
            : {}),
      });
    } catch {
      throw new TextError(409, UNREACHABLE, { errcode: -1 });
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    // a material's file comes as itself; everything else (errors included) is JSON
    if (!/json|text\/plain/i.test(res.headers.get('content-type') ?? '') && bytes[0] !== 0x7b)
      return { file: bytes, contentType: res.headers.get('content-type') ?? 'application/octet-stream' };
    let answer: Record<string, unknown>;
    try {
      answer = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw new WechatError(-1, `HTTP ${res.status}`);
    }
    const errcode = Number(answer.errcode ?? 0);
    if (errcode !== 0) throw new WechatError(errcode, String(answer.errmsg ?? ''));
    return answer;
  }
}

const UNREACHABLE: Text2 = {
  zh: '无法连接微信服务器,请稍后再试',
  en: 'WeChat’s servers cannot be reached; try again later',
};

/** WeChat's errcodes that mean the request itself was wrong (a 400); the rest are refusals of the moment (409). */
const BAD_REQUEST = new Set([
  40003, 40016, 40017, 40018, 40019, 40022, 40023, 40027, 40032, 40054, 40055, 45071,
]);

/**
 * A WeChat error as the API answers it: WeChat's errcode worded in both languages (`where` first: the
 * offending button), and in `data` the errcode, WeChat's errmsg and, for 45009, the account's way out
 * (`clearQuota`: POST wxAccount/clearQuota).
 */
export function wxRefusal(e: unknown, where?: Text2, extra: Record<string, unknown> = {}): unknown {
  if (!(e instanceof WechatError)) return e;
  const text = wxErrorText(e.errcode, e.errmsg);
  const worded = where ? { zh: `${where.zh}:${text.zh}`, en: `${where.en}: ${text.en}` } : text;
  return new TextError(BAD_REQUEST.has(e.errcode) ? 400 : 409, worded, {
    errcode: e.errcode,
    errmsg: e.errmsg,
    ...(e.errcode === 45009 ? { clearQuota: true } : {}),
    ...extra,
  });
}

/** Where this server's WeChat calls go: WECHAT_API_BASE, else the sandbox when it runs, else WeChat. */
export const wxApiBase = (
  config: Pick<Config, 'WECHAT_API_BASE' | 'WECHAT_SANDBOX' | 'WECHAT_SANDBOX_PORT'>,
) =>
  config.WECHAT_API_BASE ??
  (config.WECHAT_SANDBOX === 'on' ? `http://127.0.0.1:${config.WECHAT_SANDBOX_PORT}` : DEFAULT_BASE);

const clients = new Map<string, WechatClient>();
/** The client of a base URL (one per base: its tokens are shared by every caller of this server). */
export function wechatClient(base: string): WechatClient {
  const known = clients.get(base);
  if (known) return known;
  const made = new WechatClient(base);
  clients.set(base, made);
  return made;
}
