import { randomUUID } from 'node:crypto';
import { SMS_DEFAULT_ENDPOINT, SMS_PROVIDER, smsPlaceholders, smsRender } from '@smart/contracts';
import { type OutboundAnswer, type OutboundHosts, outboundPost } from '../../../platform/http/outbound';
import { aliyunRpcSignature, qiniuSignature, tc3Signature, wssePasswordDigest } from './signing';

/**
 * The SMS providers' own HTTP protocols, one client each — how a send is signed and sent, what its answer
 * means, and what a delivery receipt the provider posts back says:
 * - Alibaba Cloud: `SendSms` (RPC, version 2017-05-25, HMAC-SHA1 signature), one BizId for all phones;
 *   receipts: a JSON array (`biz_id`, `phone_number`, `success`, `err_code`), answered `{ code: 0 }`.
 * - Tencent Cloud: `SendSms` (API 3.0, version 2021-01-11, TC3-HMAC-SHA256), a SerialNo and a code per
 *   phone; params are the template's in order; receipts: a JSON array (`sid`, `report_status`), answered
 *   `{ result: 0 }`.
 * - Huawei Cloud: `batchSendSms/v1` (form body, WSSE UsernameToken), an smsMsgId per phone, the receipt
 *   address sent as `statusCallback`; receipts: a form (`smsMsgId`, `status` DELIVRD or the failure).
 * - Qiniu: `POST /v1/message` (JSON, the `Qiniu ak:sign` token), one job_id; receipts: `{ items: [...] }`.
 * - Yunpian: `batch_send.json` (the apikey in the form; the text itself, its sign first, is the template
 *   matched by Yunpian), a sid per phone; receipts: the form field `sms_status`, answered `SUCCESS`.
 * A provider's refusal is kept with its own code and message; nothing is counted as sent unless the
 * provider said so.
 */

/** The parts of an SMS config a provider call needs. */
export interface SmsAccount {
  category: string;
  accessKey: string;
  secretKey: string;
  appId: string | null;
  regionId: string | null;
  endpoint: string | null;
  templateId: string;
  templateContent: string;
  signName: string;
}

/** One phone's outcome of a send. */
export interface SmsPhoneOutcome {
  phone: string;
  ok: boolean;
  messageId: string | null;
  code: string | null;
  message: string | null;
}

export interface SmsOutcome {
  requestId: string | null;
  phones: SmsPhoneOutcome[];
}

/** A send the provider (or the way to it) refused as a whole: its code, message and HTTP status. */
export class SmsProviderError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number | null,
    readonly requestId: string | null = null,
  ) {
    super(message);
  }
}

/** What one delivery receipt says about one message. */
export interface SmsReceipt {
  messageId: string;
  phone: string | null;
  delivered: boolean;
  code: string | null;
  message: string | null;
}

/** A received receipt post: its content type and body as text. */
export interface ReceiptPost {
  contentType: string;
  body: string;
}

interface Provider {
  send(
    a: SmsAccount,
    phones: string[],
    params: Record<string, string>,
    receiptUrl: string,
    reach: SmsReach,
  ): Promise<SmsOutcome>;
  receipts(post: ReceiptPost): SmsReceipt[];
  /** what the provider expects back from a receipt post */
  receiptAnswer: { type: string; body: string };
}

const TIMEOUT_MS = 10_000;

/** the base address of a config's provider, without a trailing slash */
export function smsBase(a: Pick<SmsAccount, 'category' | 'endpoint'>): string {
  const base = a.endpoint || SMS_DEFAULT_ENDPOINT[a.category];
  if (!base) throw new SmsProviderError('NoEndpoint', 'the config names no API address', null);
  return base.replace(/\/$/, '');
}

/** Where a send may go: `public` keeps it out of the server's own network, but for the addresses in `allowed`. */
export interface SmsReach {
  hosts: OutboundHosts;
  /** origins reached whatever `hosts` says (the SMS sandbox the server itself runs) */
  allowed: string[];
}

/**
 * A POST to the provider, its answer read as JSON when it is JSON. A provider's answer that is not JSON is
 * never repeated (an address that is no provider must not become a way to read other servers' pages).
 */
async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  reach: SmsReach,
): Promise<{
  status: number;
  json: Record<string, unknown> | null;
  header: (name: string) => string | null;
}> {
  const target = new URL(url);
  const hosts = reach.allowed.includes(target.origin) ? 'any' : reach.hosts;
  let r: OutboundAnswer;
  try {
    r = await outboundPost(target, hosts, headers, body, { timeoutMs: TIMEOUT_MS, maxBytes: 256 * 1024 });
  } catch (e) {
    const err = e as Error & { code?: string; cause?: { code?: string } };
    throw new SmsProviderError(
      err.code ?? err.cause?.code ?? err.name,
      `the provider could not be reached: ${err.message}`,
      null,
    );
  }
  let json: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(r.text) as unknown;
    json = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    json = null;
  }
  const header = (name: string) => {
    const v = r.headers[name];
    return v === undefined ? null : String(v);
  };
  return { status: r.status, json, header };
}

const str = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v));
const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
const parseJson = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
};
const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object') : [];
const ordered = (a: SmsAccount, params: Record<string, string>) =>
  smsPlaceholders(a.templateContent).map((k) => params[k] ?? '');
const everyPhone = (phones: string[], id: string | null): SmsPhoneOutcome[] =>
  phones.map((phone) => ({ phone, ok: true, messageId: id, code: null, message: null }));

const aliyun: Provider = {
  async send(a, phones, params, _receiptUrl, reach) {
    const p: Record<string, string> = {
      AccessKeyId: a.accessKey,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: phones.join(','),
      RegionId: a.regionId || 'cn-hangzhou',
      SignName: a.signName,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      TemplateCode: a.templateId,
      TemplateParam: JSON.stringify(params),
      Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
    };
    p.Signature = aliyunRpcSignature('POST', p, a.secretKey);
    const r = await post(
      `${smsBase(a)}/`,
      { 'content-type': 'application/x-www-form-urlencoded' },
      form(p),
      reach,
    );
    const code = str(r.json?.Code);
    const requestId = str(r.json?.RequestId);
    if (code !== 'OK')
      throw new SmsProviderError(
        code ?? `HTTP${r.status}`,
        str(r.json?.Message) ?? `HTTP ${r.status}`,
        r.status,
        requestId,
      );
    return { requestId, phones: everyPhone(phones, str(r.json?.BizId)) };
  },
  receipts(post) {
    return list(parseJson(post.body)).map((x) => ({
      messageId: String(x.biz_id ?? ''),
      phone: str(x.phone_number),
      delivered: x.success === true || x.success === 'true',
      code: str(x.err_code),
      message: str(x.err_msg),
    }));
  },
  receiptAnswer: { type: 'application/json', body: JSON.stringify({ code: 0, msg: '接收成功' }) },
};

const tencent: Provider = {
  async send(a, phones, params, _receiptUrl, reach) {
    const base = smsBase(a);
    const host = new URL(base).host;
    const payload = JSON.stringify({
      PhoneNumberSet: phones.map((p) => `+86${p}`),
      SmsSdkAppId: a.appId ?? '',
      SignName: a.signName,
      TemplateId: a.templateId,
      TemplateParamSet: ordered(a, params),
    });
    const contentType = 'application/json; charset=utf-8';
    const timestamp = Math.floor(Date.now() / 1000);
    const sig = tc3Signature({
      secretKey: a.secretKey,
      service: 'sms',
      host,
      contentType,
      payload,
      timestamp,
    });
    const r = await post(
      `${base}/`,
      {
        'content-type': contentType,
        authorization: `TC3-HMAC-SHA256 Credential=${a.accessKey}/${sig.date}/sms/tc3_request, SignedHeaders=${sig.signedHeaders}, Signature=${sig.signature}`,
        'x-tc-action': 'SendSms',
        'x-tc-version': '2021-01-11',
        'x-tc-timestamp': String(timestamp),
        'x-tc-region': a.regionId || 'ap-guangzhou',
      },
      payload,
      reach,
    );
    const resp = (r.json?.Response ?? {}) as Record<string, unknown>;
    const requestId = str(resp.RequestId);
    const error = resp.Error as { Code?: string; Message?: string } | undefined;
    if (error || r.status !== 200)
      throw new SmsProviderError(
        error?.Code ?? `HTTP${r.status}`,
        error?.Message ?? `HTTP ${r.status}`,
        r.status,
        requestId,
      );
    const set = list(resp.SendStatusSet);
    return {
      requestId,
      phones: phones.map((phone) => {
        const s = set.find((x) => String(x.PhoneNumber ?? '').endsWith(phone));
        const ok = str(s?.Code) === 'Ok';
        return {
          phone,
          ok,
          messageId: str(s?.SerialNo),
          code: ok ? null : (str(s?.Code) ?? 'NoStatus'),
          message: ok ? null : (str(s?.Message) ?? 'the provider answered no status for this phone'),
        };
      }),
    };
  },
  receipts(post) {
    return list(parseJson(post.body)).map((x) => ({
      messageId: String(x.sid ?? ''),
      phone: str(x.mobile),
      delivered: x.report_status === 'SUCCESS',
      code: str(x.errmsg),
      message: str(x.description),
    }));
  },
  receiptAnswer: { type: 'application/json', body: JSON.stringify({ result: 0, errmsg: 'OK' }) },
};

const huawei: Provider = {
  async send(a, phones, params, receiptUrl, reach) {
    const created = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const nonce = randomUUID().replace(/-/g, '');
    const digest = wssePasswordDigest(nonce, created, a.secretKey);
    const r = await post(
      `${smsBase(a)}/sms/batchSendSms/v1`,
      {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: 'WSSE realm="SDP",profile="UsernameToken",type="Appkey"',
        'x-wsse': `UsernameToken Username="${a.accessKey}",PasswordDigest="${digest}",Nonce="${nonce}",Created="${created}"`,
      },
      form({
        from: a.appId ?? '',
        to: phones.map((p) => `+86${p}`).join(','),
        templateId: a.templateId,
        templateParas: JSON.stringify(ordered(a, params)),
        statusCallback: receiptUrl,
        signature: a.signName,
      }),
      reach,
    );
    const code = str(r.json?.code);
    if (code !== '000000')
      throw new SmsProviderError(
        code ?? `HTTP${r.status}`,
        str(r.json?.description) ?? `HTTP ${r.status}`,
        r.status,
      );
    const result = list(r.json?.result);
    return {
      requestId: null,
      phones: phones.map((phone) => {
        const s = result.find((x) => String(x.originTo ?? '').endsWith(phone));
        const ok = str(s?.status) === '000000';
        return {
          phone,
          ok,
          messageId: str(s?.smsMsgId),
          code: ok ? null : (str(s?.status) ?? 'NoStatus'),
          message: ok ? null : 'the provider did not accept this phone',
        };
      }),
    };
  },
  receipts(post) {
    const f = new URLSearchParams(post.body);
    const id = f.get('smsMsgId');
    if (!id) return [];
    const status = f.get('status') ?? '';
    return [
      {
        messageId: id,
        phone: f.get('to')?.replace(/^\+86/, '') ?? null,
        delivered: status === 'DELIVRD',
        code: status || null,
        message: f.get('orgCode') ?? null,
      },
    ];
  },
  receiptAnswer: { type: 'text/plain', body: '' },
};

const qiniu: Provider = {
  async send(a, phones, params, _receiptUrl, reach) {
    const base = smsBase(a);
    const url = new URL(`${base}/v1/message`);
    const body = JSON.stringify({ template_id: a.templateId, mobiles: phones, parameters: params });
    const contentType = 'application/json';
    const sign = qiniuSignature({
      secretKey: a.secretKey,
      method: 'POST',
      pathAndQuery: url.pathname,
      host: url.host,
      contentType,
      body,
    });
    const r = await post(
      url.toString(),
      { 'content-type': contentType, authorization: `Qiniu ${a.accessKey}:${sign}` },
      body,
      reach,
    );
    const requestId = r.header('x-reqid');
    const jobId = str(r.json?.job_id);
    if (r.status !== 200 || !jobId)
      throw new SmsProviderError(
        str(r.json?.error) ?? `HTTP${r.status}`,
        str(r.json?.message) ?? `HTTP ${r.status}`,
        r.status,
        requestId,
      );
    return { requestId, phones: everyPhone(phones, jobId) };
  },
  receipts(post) {
    const items = list((parseJson(post.body) as { items?: unknown } | null)?.items);
    return items.map((x) => ({
      messageId: String(x.job_id ?? x.message_id ?? ''),
      phone: str(x.mobile),
      delivered: x.status === 'DELIVRD',
      code: str(x.status),
      message: str(x.error),
    }));
  },
  receiptAnswer: { type: 'application/json', body: '{}' },
};

const yunpian: Provider = {
  async send(a, phones, params, _receiptUrl, reach) {
    const text = `【${a.signName}】${smsRender(a.templateContent, params)}`;
    const r = await post(
      `${smsBase(a)}/v2/sms/batch_send.json`,
      { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' },
      form({ apikey: a.accessKey, mobile: phones.join(','), text }),
      reach,
    );
    if (r.status !== 200 || !Array.isArray(r.json?.data))
      throw new SmsProviderError(
        str(r.json?.code) ?? `HTTP${r.status}`,
        str(r.json?.msg) ?? `HTTP ${r.status}`,
        r.status,
      );
    const data = list(r.json?.data);
    return {
      requestId: null,
      phones: phones.map((phone) => {
        const s = data.find((x) => String(x.mobile ?? '') === phone);
        const ok = s?.code === 0;
        return {
          phone,
          ok,
          messageId: str(s?.sid),
          code: ok ? null : (str(s?.code) ?? 'NoStatus'),
          message: ok ? null : (str(s?.msg) ?? 'the provider answered no status for this phone'),
        };
      }),
    };
  },
  receipts(post) {
    const raw = new URLSearchParams(post.body).get('sms_status');
    return list(raw ? parseJson(raw) : null).map((x) => ({
      messageId: String(x.sid ?? ''),
      phone: str(x.mobile),
      delivered: x.report_status === 'SUCCESS',
      code: str(x.error_msg),
      message: str(x.error_detail),
    }));
  },
  receiptAnswer: { type: 'text/plain', body: 'SUCCESS' },
};

const PROVIDERS: Record<string, Provider> = {
  [SMS_PROVIDER.ali]: aliyun,
  [SMS_PROVIDER.tencent]: tencent,
  [SMS_PROVIDER.huawei]: huawei,
  [SMS_PROVIDER.qiniu]: qiniu,
  [SMS_PROVIDER.yunpian]: yunpian,
};

export function smsProvider(category: string): Provider {
  const p = PROVIDERS[category];
  if (!p) throw new SmsProviderError('UnknownProvider', `no SMS provider ${category}`, null);
  return p;
}
