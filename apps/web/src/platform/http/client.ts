/**
 * The one http client (spec §8): statuses 200–500 reach the handler; a body code (or, without one, the
 * HTTP status) other than 200 shows an error toast and rejects; 401 logs out locally and goes to /login;
 * codes in the whitelist reject silently; requests time out after 30 s. A request made while the access
 * token is being refreshed waits for the refresh and goes out with the new token.
 */
import { REQUEST_TIMEOUT_MS, TOKEN_HEADER, WEB_CLIENT_ID, WEB_CLIENT_SECRET } from '@smart/contracts/core';
import type { TextKey } from '../i18n';
import { showErrorToast } from './toast';

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | QueryValue[]>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  params?: Query;
  /** a JSON body, or FormData / Blob sent as is */
  body?: unknown;
  headers?: Record<string, string | undefined>;
  /** send Blade-Auth when signed in (default true) */
  auth?: boolean;
  /** no toast for this call: the caller shows the error itself */
  silent?: boolean;
  timeout?: number;
  responseType?: 'json' | 'blob';
  signal?: AbortSignal;
}

export class HttpError extends Error {
  readonly code: number;
  readonly status: number;
  readonly body: unknown;
  constructor(message: string, code: number, status: number, body: unknown) {
    super(message);
    this.name = 'HttpError';
    this.code = code;
    this.status = status;
    this.body = body;
  }
}

export interface HttpConfig {
  /** current access token, or '' when signed out */
  getToken: () => string;
  /** value of Accept-Language */
  getLanguage: () => string;
  /** translate a fallback message key */
  translate: (key: TextKey, options?: Record<string, unknown>) => string;
  /** called on code 401: local logout and go to /login */
  onUnauthorized: () => void;
  /** codes rejected silently (no toast, no logout): the caller handles them */
  silentCodes: number[];
  /** the token refresh in flight, if any: authenticated requests wait for it */
  pendingRefresh: () => Promise<unknown> | null;
}

const config: HttpConfig = {
  getToken: () => '',
  getLanguage: () => 'zh-CN',
  translate: (key) => key,
  onUnauthorized: () => {},
  silentCodes: [],
  pendingRefresh: () => null,
};

export function configureHttp(patch: Partial<HttpConfig>): void {
  Object.assign(config, patch);
}

export const BASIC_AUTH = `Basic ${btoa(`${WEB_CLIENT_ID}:${WEB_CLIENT_SECRET}`)}`;

export function buildUrl(url: string, params?: Query): string {
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      const items = value.filter((v) => v !== undefined && v !== null);
      if (items.length) search.append(key, items.join(','));
    } else {
      search.append(key, String(value));
    }
  }
  const qs = search.toString();
  if (!qs) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${qs}`;
}

function fail(message: string, code: number, status: number, body: unknown, silent?: boolean): never {
  if (!silent) showErrorToast(message);
  throw new HttpError(message, code, status, body);
}

export async function request<T = unknown>(url: string, options: RequestOptions = {}): Promise<T> {
  if (options.auth !== false) {
    // one refresh at a time: the others' requests wait for it, then carry the new token
    const refresh = config.pendingRefresh();
    if (refresh) await refresh.catch(() => {});
  }
  const headers: Record<string, string> = {
    Authorization: BASIC_AUTH,
    'Accept-Language': config.getLanguage(),
  };
  const token = options.auth === false ? '' : config.getToken();
  if (token) headers[TOKEN_HEADER] = `bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    if (options.body instanceof FormData || options.body instanceof Blob) {
      body = options.body;
    } else {
      body = JSON.stringify(options.body);
      headers['Content-Type'] = 'application/json;charset=UTF-8';
    }
  }
  for (const [key, value] of Object.entries(options.headers ?? {})) {
    if (value !== undefined && value !== '') headers[key] = value;
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeout ?? REQUEST_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  let response: Response;
  try {
    response = await fetch(buildUrl(url, options.params), {
      method: options.method ?? 'GET',
      headers,
      body,
      credentials: 'same-origin',
      signal: controller.signal,
    });
  } catch (error) {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    if (options.signal?.aborted && !timedOut) throw error;
    const key = timedOut ? 'http.timeout' : 'http.network';
    return fail(config.translate(key), timedOut ? 408 : 0, 0, null, options.silent);
  }

  let payload: unknown = null;
  try {
    const status = response.status;
    if (status < 200 || status > 500) {
      return fail(config.translate('http.status', { status }), status, status, null, options.silent);
    }
    const type = response.headers.get('content-type') ?? '';
    if (options.responseType === 'blob' && status === 200 && !type.includes('json')) {
      return (await response.blob()) as T;
    }
    const text = await response.text();
    if (text) {
      try {
        payload = JSON.parse(text);
      } catch {
        payload = text;
      }
    }
    const record =
      payload !== null && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
    const code = (typeof record.code === 'number' && record.code) || status;
    if (code === 200) return payload as T;
    const message =
      (typeof record.msg === 'string' && record.msg) ||
      (typeof record.error_description === 'string' && record.error_description) ||
      config.translate('http.unknownError');
    if (config.silentCodes.includes(code)) throw new HttpError(message, code, status, payload);
    if (code === 401) config.onUnauthorized();
    return fail(message, code, status, payload, options.silent);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** GET and unwrap the envelope's data. */
export async function getData<T>(url: string, params?: Query, options: RequestOptions = {}): Promise<T> {
  const body = await request<{ data: T }>(url, { ...options, method: 'GET', params });
  return body.data;
}

/** POST and unwrap the envelope's data. */
export async function postData<T>(
  url: string,
  body?: unknown,
  params?: Query,
  options: RequestOptions = {},
): Promise<T> {
  const res = await request<{ data: T }>(url, { ...options, method: 'POST', body, params });
  return res.data;
}
