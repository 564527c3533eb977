import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMS_PROVIDER, smsParamsProblem, smsPlaceholders } from '@smart/contracts';
import { aliyunRpcSignature, qiniuSignature, tc3Signature, wssePasswordDigest } from './signing';

/**
 * The SMS sandbox: one real HTTP server speaking each provider's documented send API (Alibaba Cloud's
 * `SendSms` RPC at `/`, Tencent Cloud's API 3.0 at `/` with `X-TC-Action`, Huawei Cloud's
 * `/sms/batchSendSms/v1`, Qiniu's `/v1/message`, Yunpian's `/v2/sms/batch_send.json`). Each request's
 * signature is computed again from what arrived — the raw body, the headers — with the account's secret,
 * and a wrong one is refused with the provider's own code, as are an unknown key, an unknown template and a
 * template's missing param. An accepted message gets a delivery receipt in the provider's own format,
 * posted to the address the account's "console" names (`setReceiptUrl`, as an operator pastes it into the
 * provider's console; Huawei's comes with each request as `statusCallback`). `npm start` runs one for the
 * demo config (SMS_SANDBOX=on); the API tests start their own.
 */

interface SandboxAccount {
  category: string;
  secret: string;
}

export interface SmsSandboxCall {
  category: string;
  accessKey: string;
  phones: string[];
  templateId: string;
  params: Record<string, string> | string[];
  /** how the sandbox answered: the provider's code (`OK`, `Ok`, `000000`, a refusal's code) */
  answered: string;
}

interface Pending {
  url: string;
  category: string;
  messageId: string;
  phone: string;
  delivered: boolean;
}

const FIVE_MINUTES = 300;
const RECEIPT_RETRIES = 6;

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const phoneOf = (p: string) => p.replace(/^\+86/, '');

export class SmsSandbox {
  private server: Server | null = null;
  private readonly accounts = new Map<string, SandboxAccount>();
  private readonly templates = new Map<string, string>();
  private readonly receiptUrls = new Map<string, string>();
  private pending: Pending[] = [];
  private readonly posting = new Set<Promise<void>>();
  private closing = false;
  /** every send received, signed right or not */
  readonly calls: SmsSandboxCall[] = [];
  /** phones whose messages are accepted and then reported undelivered */
  readonly undeliverable = new Set<string>();
  /** receipts are posted by themselves a moment after the send (false: only when `flushReceipts` is called) */
  autoDeliver = true;

  addAccount(category: string, accessKey: string, secret: string): this {
    this.accounts.set(accessKey, { category, secret });
    return this;
  }

  /** a template the providers approved, with its text (params are checked against its placeholders) */
  addTemplate(templateId: string, content: string): this {
    this.templates.set(templateId, content);
    return this;
  }

  setReceiptUrl(accessKey: string, url: string): this {
    this.receiptUrls.set(accessKey, url);
    return this;
  }

  get url(): string {
    const a = this.server?.address() as AddressInfo | null;
    if (!a) throw new Error('the SMS sandbox is not listening');
    return `http://127.0.0.1:${a.port}`;
  }

  async listen(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          this.route(req, Buffer.concat(chunks).toString('utf8'), res);
        } catch (e) {
          send(res, 500, { message: (e as Error).message });
        }
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(port, '127.0.0.1', () => resolve());
    });
    return this;
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.flushReceipts();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }

  /** posts every receipt not yet posted, and waits until each was answered */
  async flushReceipts(): Promise<void> {
    const due = this.pending;
    this.pending = [];
    for (const p of due) this.postReceipt(p);
    await Promise.all([...this.posting]);
  }

  private route(req: IncomingMessage, body: string, res: ServerResponse) {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'POST') return send(res, 405, { message: 'POST only' });
    if (path === '/' && req.headers['x-tc-action']) return this.tencent(req, body, res);
    if (path === '/') return this.aliyun(body, res);
    if (path === '/sms/batchSendSms/v1') return this.huawei(req, body, res);
    if (path === '/v1/message') return this.qiniu(req, body, res);
    if (path === '/v2/sms/batch_send.json') return this.yunpian(body, res);
    send(res, 404, { message: `no such API: ${path}` });
  }

  private account(accessKey: string, category: string): SandboxAccount | null {
    const a = this.accounts.get(accessKey);
    return a && a.category === category ? a : null;
  }

  private record(call: SmsSandboxCall) {
    this.calls.push(call);
  }

  /** the refusal of a template this account may not use, or of params its text does not take */
  private templateProblem(
    templateId: string,
    params: Record<string, string> | string[],
  ): 'unknown' | 'params' | null {
    const content = this.templates.get(templateId);
    if (content === undefined) return 'unknown';
    const named = Array.isArray(params)
      ? Object.fromEntries(smsPlaceholders(content).map((k, i) => [k, params[i]]))
      : params;
    if (Array.isArray(params) && params.length !== smsPlaceholders(content).length) return 'params';
    return smsParamsProblem(content, named) ? 'params' : null;
  }

  private accept(
    category: string,
    accessKey: string,
    phones: string[],
    messageIdOf: (phone: string) => string,
    url?: string,
  ) {
    const to = url ?? this.receiptUrls.get(accessKey);
    if (!to) return;
    for (const phone of phones) {
      const p = {
        url: to,
        category,
        messageId: messageIdOf(phone),
        phone,
        delivered: !this.undeliverable.has(phone),
      };
      if (this.autoDeliver) setTimeout(() => this.postReceipt(p), 20);
      else this.pending.push(p);
    }
  }

  /**
   * Posts a receipt as the providers do: one answered 5xx or not at all (the server busy, or the message not
   * yet known to it) is posted again after 0.25, 0.5, 1, 2, 4 and 8 s, then given up; not once closing.
   */
  private postReceipt(p: Pending, attempt = 0): Promise<void> {
    const at = new Date().toISOString().replace('T', ' ').slice(0, 19);
    const bodies: Record<string, [string, string]> = {
      [SMS_PROVIDER.ali]: [
        'application/json',
        JSON.stringify([
          {
            phone_number: p.phone,
            send_time: at,
            report_time: at,
            success: p.delivered,
            err_code: p.delivered ? 'DELIVERED' : 'MK:0001',
            err_msg: p.delivered ? '用户接收成功' : '用户关机',
            sms_size: '1',
            biz_id: p.messageId,
          },
        ]),
      ],
      [SMS_PROVIDER.tencent]: [
        'application/json',
        JSON.stringify([
          {
            user_receive_time: at,
            nationcode: '86',
            mobile: p.phone,
            report_status: p.delivered ? 'SUCCESS' : 'FAIL',
            errmsg: p.delivered ? 'DELIVRD' : 'MK:0001',
            description: p.delivered ? '用户短信送达成功' : '用户关机',
            sid: p.messageId,
          },
        ]),
      ],
      [SMS_PROVIDER.huawei]: [
        'application/x-www-form-urlencoded',
        new URLSearchParams({
          sequence: '1',
          total: '1',
          updateTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
          source: '2',
          smsMsgId: p.messageId,
          to: `+86${p.phone}`,
          status: p.delivered ? 'DELIVRD' : 'MK:0001',
        }).toString(),
      ],
      [SMS_PROVIDER.qiniu]: [
        'application/json',
        JSON.stringify({
          items: [
            {
              mobile: p.phone,
              job_id: p.messageId,
              status: p.delivered ? 'DELIVRD' : 'FAILED',
              delivrd_at: Math.floor(Date.now() / 1000),
              ...(p.delivered ? {} : { error: 'MK:0001' }),
            },
          ],
        }),
      ],
      [SMS_PROVIDER.yunpian]: [
        'application/x-www-form-urlencoded;charset=utf-8',
        new URLSearchParams({
          sms_status: JSON.stringify([
            {
              sid: p.messageId,
              uid: null,
              user_receive_time: at,
              error_msg: p.delivered ? '' : 'MK:0001',
              mobile: p.phone,
              report_status: p.delivered ? 'SUCCESS' : 'FAIL',
              error_detail: p.delivered ? '' : '用户关机',
            },
          ]),
        }).toString(),
      ],
    };
    const [type, body] = bodies[p.category];
    const sent = fetch(p.url, { method: 'POST', headers: { 'content-type': type }, body })
      .then(async (r) => {
        await r.arrayBuffer();
        return r.status < 500;
      })
      .catch(() => false)
      .then(async (answered) => {
        if (answered || this.closing || attempt >= RECEIPT_RETRIES) return;
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
        await this.postReceipt(p, attempt + 1);
      });
    this.posting.add(sent);
    void sent.finally(() => this.posting.delete(sent));
    return sent;
  }

  private aliyun(body: string, res: ServerResponse) {
    const p = Object.fromEntries(new URLSearchParams(body));
    const requestId = randomUUID().toUpperCase();
    const answer = (status: number, Code: string, Message: string, extra: object = {}) => {
      this.record({
        category: SMS_PROVIDER.ali,
        accessKey: p.AccessKeyId ?? '',
        phones: (p.PhoneNumbers ?? '').split(',').filter(Boolean),
        templateId: p.TemplateCode ?? '',
        params: safeJson(p.TemplateParam) ?? {},
        answered: Code,
      });
      send(res, status, { RequestId: requestId, Code, Message, ...extra });
    };
    if (p.Action !== 'SendSms') return answer(400, 'InvalidAction.NotFound', 'Specified api is not found');
    const acct = this.account(p.AccessKeyId ?? '', SMS_PROVIDER.ali);
    if (!acct) return answer(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
    if (!p.Signature || !same(p.Signature, aliyunRpcSignature('POST', p, acct.secret)))
      return answer(400, 'SignatureDoesNotMatch', 'Specified signature is not matched with our calculation.');
    if (Math.abs(Date.parse(p.Timestamp ?? '') - Date.now()) > FIVE_MINUTES * 1000)
      return answer(400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.');
    const params = safeJson(p.TemplateParam) ?? {};
    const problem = this.templateProblem(p.TemplateCode ?? '', params);
    if (problem === 'unknown') return answer(200, 'isv.SMS_TEMPLATE_ILLEGAL', '模板不合法(不存在或被拉黑)');
    if (problem === 'params') return answer(200, 'isv.TEMPLATE_MISSING_PARAMETERS', '模板缺少变量');
    const bizId = `${Date.now()}${Math.floor(Math.random() * 1e6)}^0`;
    this.accept(SMS_PROVIDER.ali, p.AccessKeyId, p.PhoneNumbers.split(','), () => bizId);
    answer(200, 'OK', 'OK', { BizId: bizId });
  }

  private tencent(req: IncomingMessage, body: string, res: ServerResponse) {
    const requestId = randomUUID();
    const b = (safeJson(body) ?? {}) as {
      PhoneNumberSet?: string[];
      TemplateId?: string;
      TemplateParamSet?: string[];
    };
    const auth =
      /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/sms\/tc3_request, SignedHeaders=content-type;host, Signature=([0-9a-f]{64})$/.exec(
        String(req.headers.authorization ?? ''),
      );
    const phones = (b.PhoneNumberSet ?? []).map(phoneOf);
    const fail = (Code: string, Message: string) => {
      this.record({
        category: SMS_PROVIDER.tencent,
        accessKey: auth?.[1] ?? '',
        phones,
        templateId: b.TemplateId ?? '',
        params: b.TemplateParamSet ?? [],
        answered: Code,
      });
      send(res, 200, { Response: { Error: { Code, Message }, RequestId: requestId } });
    };
    if (!auth) return fail('AuthFailure.InvalidAuthorization', 'Authorization is invalid');
    const acct = this.account(auth[1], SMS_PROVIDER.tencent);
    if (!acct) return fail('AuthFailure.SecretIdNotFound', 'The SecretId is not found');
    const timestamp = Number(req.headers['x-tc-timestamp']);
    const sig = tc3Signature({
      secretKey: acct.secret,
      service: 'sms',
      host: String(req.headers.host ?? ''),
      contentType: String(req.headers['content-type'] ?? ''),
      payload: body,
      timestamp,
    });
    if (sig.date !== auth[2] || !same(sig.signature, auth[3]))
      return fail('AuthFailure.SignatureFailure', 'The provided credentials could not be validated');
    if (Math.abs(timestamp - Date.now() / 1000) > FIVE_MINUTES)
      return fail('AuthFailure.SignatureExpire', 'Signature expired');
    const problem = this.templateProblem(b.TemplateId ?? '', b.TemplateParamSet ?? []);
    if (problem === 'unknown')
      return fail(
        'FailedOperation.TemplateIncorrectOrUnapproved',
        'template is not approved or request content does not match the approved template content',
      );
    if (problem === 'params')
      return fail(
        'FailedOperation.TemplateParamSetNotMatchApprovedTemplate',
        'the number of params does not match the template',
      );
    const serial = new Map(phones.map((p) => [p, `2433:${randomUUID().replace(/-/g, '').slice(0, 24)}`]));
    this.record({
      category: SMS_PROVIDER.tencent,
      accessKey: auth[1],
      phones,
      templateId: b.TemplateId ?? '',
      params: b.TemplateParamSet ?? [],
      answered: 'Ok',
    });
    this.accept(SMS_PROVIDER.tencent, auth[1], phones, (p) => serial.get(p) ?? '');
    send(res, 200, {
      Response: {
        SendStatusSet: phones.map((p) => ({
          SerialNo: serial.get(p),
          PhoneNumber: `+86${p}`,
          Fee: 1,
          SessionContext: '',
          Code: 'Ok',
          Message: 'send success',
          IsoCode: 'CN',
        })),
        RequestId: requestId,
      },
    });
  }

  private huawei(req: IncomingMessage, body: string, res: ServerResponse) {
    const f = Object.fromEntries(new URLSearchParams(body));
    const phones = (f.to ?? '').split(',').filter(Boolean).map(phoneOf);
    const params = (safeJson(f.templateParas) as string[] | null) ?? [];
    const wsse =
      /^UsernameToken Username="([^"]+)",PasswordDigest="([^"]+)",Nonce="([^"]+)",Created="([^"]+)"$/.exec(
        String(req.headers['x-wsse'] ?? ''),
      );
    const fail = (status: number, code: string, description: string) => {
      this.record({
        category: SMS_PROVIDER.huawei,
        accessKey: wsse?.[1] ?? '',
        phones,
        templateId: f.templateId ?? '',
        params,
        answered: code,
      });
      send(res, status, { code, description });
    };
    if (
      !/^WSSE realm="SDP",profile="UsernameToken",type="Appkey"$/.test(
        String(req.headers.authorization ?? ''),
      )
    )
      return fail(401, 'E000001', 'Authorization not contained in the HTTP header.');
    if (!wsse) return fail(401, 'E000020', 'X-WSSE not contained in the HTTP header.');
    const acct = this.account(wsse[1], SMS_PROVIDER.huawei);
    if (!acct) return fail(401, 'E000102', 'Invalid app_key.');
    if (!same(wsse[2], wssePasswordDigest(wsse[3], wsse[4], acct.secret)))
      return fail(401, 'E000104', 'Invalid app_secret.');
    if (Math.abs(Date.parse(wsse[4]) - Date.now()) > FIVE_MINUTES * 1000)
      return fail(401, 'E000503', 'The Created time is out of range.');
    const problem = this.templateProblem(f.templateId ?? '', params);
    if (problem === 'unknown') return fail(400, 'E000623', 'The SMS template does not exist.');
    if (problem === 'params')
      return fail(400, 'E000510', 'The template parameters do not match the template.');
    const ids = new Map(phones.map((p) => [p, `${randomUUID()}_${Math.floor(Math.random() * 1e7)}`]));
    this.record({
      category: SMS_PROVIDER.huawei,
      accessKey: wsse[1],
      phones,
      templateId: f.templateId,
      params,
      answered: '000000',
    });
    this.accept(SMS_PROVIDER.huawei, wsse[1], phones, (p) => ids.get(p) ?? '', f.statusCallback || undefined);
    send(res, 200, {
      code: '000000',
      description: 'Success',
      result: phones.map((p) => ({
        originTo: `+86${p}`,
        createTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        from: f.from,
        smsMsgId: ids.get(p),
        status: '000000',
      })),
    });
  }

  private qiniu(req: IncomingMessage, body: string, res: ServerResponse) {
    const b = (safeJson(body) ?? {}) as {
      template_id?: string;
      mobiles?: string[];
      parameters?: Record<string, string>;
    };
    const m = /^Qiniu ([^:]+):(.+)$/.exec(String(req.headers.authorization ?? ''));
    const phones = b.mobiles ?? [];
    const fail = (status: number, error: string, message: string) => {
      this.record({
        category: SMS_PROVIDER.qiniu,
        accessKey: m?.[1] ?? '',
        phones,
        templateId: b.template_id ?? '',
        params: b.parameters ?? {},
        answered: error,
      });
      res.setHeader('x-reqid', randomUUID());
      send(res, status, { error, message });
    };
    if (!m) return fail(401, 'BadToken', 'no token');
    const acct = this.account(m[1], SMS_PROVIDER.qiniu);
    const expected =
      acct &&
      qiniuSignature({
        secretKey: acct.secret,
        method: 'POST',
        pathAndQuery: req.url ?? '',
        host: String(req.headers.host ?? ''),
        contentType: String(req.headers['content-type'] ?? ''),
        body,
      });
    if (!expected || !same(expected, m[2])) return fail(401, 'BadToken', 'bad token');
    const problem = this.templateProblem(b.template_id ?? '', b.parameters ?? {});
    if (problem === 'unknown') return fail(400, 'TemplateNotFound', 'template not found');
    if (problem === 'params') return fail(400, 'InvalidParameters', 'template parameters do not match');
    const jobId = randomUUID().replace(/-/g, '').slice(0, 16);
    this.record({
      category: SMS_PROVIDER.qiniu,
      accessKey: m[1],
      phones,
      templateId: b.template_id ?? '',
      params: b.parameters ?? {},
      answered: 'OK',
    });
    this.accept(SMS_PROVIDER.qiniu, m[1], phones, () => jobId);
    res.setHeader('x-reqid', randomUUID());
    send(res, 200, { job_id: jobId });
  }

  private yunpian(body: string, res: ServerResponse) {
    const f = Object.fromEntries(new URLSearchParams(body));
    const phones = (f.mobile ?? '').split(',').filter(Boolean);
    const fail = (status: number, code: number, msg: string) => {
      this.record({
        category: SMS_PROVIDER.yunpian,
        accessKey: f.apikey ?? '',
        phones,
        templateId: '',
        params: {},
        answered: String(code),
      });
      send(res, status, { http_status_code: status, code, msg, detail: msg });
    };
    if (!this.account(f.apikey ?? '', SMS_PROVIDER.yunpian)) return fail(401, -1, '非法的apikey');
    // Yunpian matches the text itself against the approved templates (their sign first)
    const text = f.text ?? '';
    const matched = [...this.templates.values()].find((t) => {
      const pattern = t
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\\?\{[A-Za-z_][A-Za-z0-9_]*\\?\}/g, '(.+?)');
      return new RegExp(`^【[^】]+】${pattern}$`).test(text);
    });
    if (!matched) return fail(400, 5, '未找到匹配的模板');
    const sids = new Map(phones.map((p) => [p, String(Math.floor(Math.random() * 1e15))]));
    this.record({
      category: SMS_PROVIDER.yunpian,
      accessKey: f.apikey,
      phones,
      templateId: '',
      params: { text },
      answered: '0',
    });
    this.accept(SMS_PROVIDER.yunpian, f.apikey, phones, (p) => sids.get(p) ?? '');
    send(res, 200, {
      total_count: phones.length,
      total_fee: 0.05 * phones.length,
      unit: 'RMB',
      data: phones.map((p) => ({
        code: 0,
        msg: '发送成功',
        count: 1,
        fee: 0.05,
        unit: 'RMB',
        mobile: p,
        sid: Number(sids.get(p)),
      })),
    });
  }
}

function safeJson(s: string | undefined): Record<string, string> | null {
  if (!s) return null;
  try {
    return JSON.parse(s) as Record<string, string>;
  } catch {
    return null;
  }
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
