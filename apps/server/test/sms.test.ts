import { DEVICE_KIND, SMS_DEMO, SMS_PROVIDER, SMS_SOURCE, SMS_STATE } from '@smart/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmsSandbox } from '../src/modules/resource/sms/sandbox';
import { SANDBOX_ORIGINS } from '../src/modules/resource/sms/send';
import { signedMessage } from '../src/modules/telemetry/simulator';
import { mountedResource } from '../src/platform/crud/refs';
import {
  areaServer,
  freePort,
  grantCodes,
  makeRole,
  recordedCalls,
  serviceCalls,
  signedInUser,
} from './fixtures';
import type { TestServer } from './harness';

/**
 * 短信 (issue 35, SMS slice) against the SMS sandbox — a real HTTP server speaking each provider's send API,
 * which computes every request's signature again from what arrived and refuses a wrong one with the
 * provider's own code, and posts delivery receipts in the provider's own format to the address the config
 * shows. The server under test listens on a real port so the receipts reach it over HTTP.
 */

let s: TestServer;
let token: string;
let other: string;
let sandbox: SmsSandbox;

const SECRETS: Record<string, string> = {
  [SMS_PROVIDER.ali]: 'AliSecret-9f8e7d6c5b4a',
  [SMS_PROVIDER.tencent]: 'TencentSecret-1a2b3c4d5e',
  [SMS_PROVIDER.huawei]: 'HuaweiSecret-5e4d3c2b1a',
  [SMS_PROVIDER.qiniu]: 'QiniuSecret-0f1e2d3c4b',
  [SMS_PROVIDER.yunpian]: '',
};
const TEMPLATE = '您的验证码为{code},{minutes}分钟内有效';
const TEMPLATE_ID = 'SMS_900001';

const { get, post, answers } = recordedCalls(
  () => s,
  '/api/dfem-resource',
  () => token,
);

beforeAll(async () => {
  sandbox = await new SmsSandbox().addTemplate(TEMPLATE_ID, TEMPLATE).listen(0);
  sandbox.autoDeliver = false;
  // the server reaches this sandbox as it reaches the one it runs itself (SMS_ENDPOINT_HOSTS stays public)
  SANDBOX_ORIGINS.add(sandbox.url);
  const port = await freePort();
  ({ s, token, other } = await areaServer(['360001', '短信别村', 'sms_other'], {
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMS_OUTBOX_INTERVAL_MS: '50',
    TELEMETRY_FLUSH_MS: '20',
  }));
  await s.app.listen({ port, host: '127.0.0.1' });
}, 60_000);
afterAll(async () => {
  SANDBOX_ORIGINS.delete(sandbox?.url);
  await sandbox?.close();
  await s?.close();
});

let n = 0;
/** a config of `category` against the sandbox, its account known there (with `secret` unless told otherwise) */
async function config(
  category: string,
  over: Record<string, unknown> = {},
  known = true,
): Promise<{ id: string; code: string; key: string }> {
  const code = `sms-${category}-${++n}`;
  const accessKey = `AK${category}x${n}`;
  if (known) sandbox.addAccount(category, accessKey, SECRETS[category] || accessKey);
  const r = await post('/sms/submit', {
    smsCode: code,
    category,
    templateId: TEMPLATE_ID,
    templateContent: TEMPLATE,
    signName: '智慧乡村',
    accessKey,
    ...(SECRETS[category] ? { secretKey: SECRETS[category] } : {}),
    appId: '1400000001',
    endpoint: sandbox.url,
    ...over,
  });
  expect(r.statusCode, r.body).toBe(200);
  const id = String(r.json().data.id);
  const detail = (await get(`/sms/detail?id=${id}`)).json().data;
  expect(detail.receiptKey).toMatch(/^[A-Za-z0-9_-]{32}$/);
  sandbox.setReceiptUrl(
    accessKey,
    `${s.config.PUBLIC_URL}/api/dfem-resource/sms/receipt/${id}/${detail.receiptKey}`,
  );
  return { id, code, key: detail.receiptKey };
}

const logOf = async (smsId: string) => {
  const m = mountedResource('smsLog');
  return (await s.database.db.select().from(m.table).where(eq(m.cols.smsId, smsId))) as Record<
    string,
    unknown
  >[];
};

let phoneNo = 0;
/** a phone no other test has texted (the per-phone limit is one a minute) */
const phone = () => `1390000${String(++phoneNo).padStart(4, '0')}`;

/** sends a code (`digits`, valid 5 minutes) through config `code`, to a new phone unless told */
const sendCode = (code: string, phones = phone(), digits = '1') =>
  post('/sms/endpoint/send-message', { code, phones, params: { code: digits, minutes: '5' } });

describe('sending through each provider’s protocol', () => {
  for (const [name, category] of Object.entries(SMS_PROVIDER))
    it(`${name}: signed as the provider checks it, sent, then delivered by its receipt`, async () => {
      const c = await config(category);
      const to = [phone(), phone()];
      const before = sandbox.calls.length;
      const r = await post('/sms/endpoint/send-message', {
        code: c.code,
        phones: to.join(','),
        params: JSON.stringify({ code: '4321', minutes: 5 }),
      });
      expect(r.statusCode, r.body).toBe(200);
      const data = r.json().data;
      expect(data.messages.map((m: { phone: string; state: string }) => [m.phone, m.state])).toEqual(
        to.map((p) => [p, SMS_STATE.sent]),
      );
      expect(data.messages.every((m: { messageId: string }) => m.messageId)).toBe(true);
      const call = sandbox.calls.slice(before);
      expect(call).toHaveLength(1);
      expect(['OK', 'Ok', '000000', '0']).toContain(call[0].answered);
      expect(call[0].phones).toEqual(to);
      // the receipts come back over HTTP to the address the config shows
      await sandbox.flushReceipts();
      const rows = await logOf(c.id);
      expect(rows.map((x) => [x.phone, x.state]).sort()).toEqual(
        to.map((p) => [p, SMS_STATE.delivered]).sort(),
      );
      expect(rows.every((x) => x.deliveredAt && x.source === SMS_SOURCE.manual)).toBe(true);
      expect(String(rows[0].content)).toBe('【智慧乡村】您的验证码为4321,5分钟内有效');
    });

  it('a wrong secret is refused by each signing provider with its own code, and shown with it', async () => {
    const codes: Record<string, string> = {
      [SMS_PROVIDER.ali]: 'SignatureDoesNotMatch',
      [SMS_PROVIDER.tencent]: 'AuthFailure.SignatureFailure',
      [SMS_PROVIDER.huawei]: 'E000104',
      [SMS_PROVIDER.qiniu]: 'BadToken',
    };
    for (const [category, code] of Object.entries(codes)) {
      const c = await config(category, { secretKey: 'not-the-secret-at-all' });
      // the sandbox knows the account with its real secret: only the signature is wrong
      const r = await sendCode(c.code);
      expect(r.statusCode, r.body).toBe(502);
      expect(r.json().msg).toContain(code);
      const [row] = await logOf(c.id);
      expect(row).toMatchObject({ state: SMS_STATE.failed, errorCode: code });
    }
  });

  it('a template the provider does not know: its refusal, with its code, never “sent”', async () => {
    const c = await config(SMS_PROVIDER.ali, { templateId: 'SMS_404' });
    const r = await sendCode(c.code);
    expect(r.statusCode, r.body).toBe(502);
    expect(r.json().msg).toContain('isv.SMS_TEMPLATE_ILLEGAL');
    const [row] = await logOf(c.id);
    expect(row).toMatchObject({
      state: SMS_STATE.failed,
      errorCode: 'isv.SMS_TEMPLATE_ILLEGAL',
      messageId: null,
    });
  });

  it('a missing {code} param is a 400 before any provider call', async () => {
    const c = await config(SMS_PROVIDER.tencent);
    const before = sandbox.calls.length;
    const r = await post('/sms/endpoint/send-message', {
      code: c.code,
      phones: phone(),
      params: { minutes: '5' },
    });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().msg).toContain('{code}');
    const unknown = await post('/sms/endpoint/send-message', {
      code: c.code,
      phones: phone(),
      params: { code: '1', minutes: '5', extra: 'x' },
    });
    expect(unknown.statusCode, unknown.body).toBe(400);
    expect(sandbox.calls.length).toBe(before);
    expect(await logOf(c.id)).toHaveLength(0);
  });

  it('an undelivered receipt fails the message with the provider’s code; a wrong key moves nothing', async () => {
    const c = await config(SMS_PROVIDER.qiniu);
    const to = phone();
    sandbox.undeliverable.add(to);
    expect((await sendCode(c.code, to, '7')).statusCode).toBe(200);
    const [sent] = await logOf(c.id);
    // a forged receipt: the right message id, a key that is not the config's
    const forged = await s.app.inject({
      method: 'POST',
      url: `/api/dfem-resource/sms/receipt/${c.id}/${'x'.repeat(32)}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ items: [{ mobile: to, job_id: sent.messageId, status: 'DELIVRD' }] }),
    });
    expect(forged.statusCode).toBe(404);
    expect((await logOf(c.id))[0].state).toBe(SMS_STATE.sent);
    await sandbox.flushReceipts();
    expect((await logOf(c.id))[0]).toMatchObject({
      state: SMS_STATE.failed,
      errorCode: 'FAILED',
      errorMessage: 'MK:0001',
    });
  });

  it('a receipt that overtakes its send is answered 503 (the provider posts it again), then applied once', async () => {
    const c = await config(SMS_PROVIDER.qiniu);
    const to = phone();
    const receipt = (messageId: string) =>
      s.app.inject({
        method: 'POST',
        url: `/api/dfem-resource/sms/receipt/${c.id}/${c.key}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ items: [{ mobile: to, job_id: messageId, status: 'DELIVRD' }] }),
      });
    // the provider's receipt for a message whose id the log does not hold yet
    const early = await receipt('not-yet-written');
    expect(early.statusCode, early.body).toBe(503);
    expect(early.headers['retry-after']).toBe('1');
    expect((await sendCode(c.code, to, '7')).statusCode).toBe(200);
    const [sent] = await logOf(c.id);
    expect((await receipt(String(sent.messageId))).statusCode).toBe(200);
    expect((await logOf(c.id))[0].state).toBe(SMS_STATE.delivered);
    // posted again (its first answer lost): known, so answered 200, and the message stays delivered
    expect((await receipt(String(sent.messageId))).statusCode).toBe(200);
    expect((await logOf(c.id))[0].state).toBe(SMS_STATE.delivered);
  });

  it('per-phone rate limit: a second message to one phone within the minute is a 429, and not sent', async () => {
    const c = await config(SMS_PROVIDER.ali);
    const to = phone();
    const send = () => sendCode(c.code, to);
    expect((await send()).statusCode).toBe(200);
    const before = sandbox.calls.length;
    const again = await send();
    expect(again.statusCode, again.body).toBe(429);
    expect(again.json().msg).toContain('每分钟最多 1 条');
    expect(sandbox.calls.length).toBe(before);
  });
});

describe('SMS configs', () => {
  it('enabling B disables A (one per tenant)', async () => {
    const a = await config(SMS_PROVIDER.ali);
    const b = await config(SMS_PROVIDER.tencent);
    expect((await post('/sms/enable', { id: a.id })).statusCode).toBe(200);
    const r = await post(`/sms/enable?id=${b.id}`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().data.disabled).toContain(a.id);
    const list = (await get('/sms/list?size=100')).json().data.records as { id: string; enabled: number }[];
    expect(list.filter((x) => x.enabled === 1).map((x) => x.id)).toEqual([b.id]);
  });

  it('the secret is never answered nor logged; an empty one on edit keeps it (the send still signs right)', async () => {
    const c = await config(SMS_PROVIDER.huawei);
    const detail = (await get(`/sms/detail?id=${c.id}`)).json().data;
    expect(detail.secretKey ?? '').not.toBe(SECRETS[SMS_PROVIDER.huawei]);
    const { secretKey: _drop, ...rest } = detail;
    expect((await post('/sms/submit', { ...rest, secretKey: '', remark: '改备注' })).statusCode).toBe(200);
    const r = await post('/sms/endpoint/send-message', {
      code: c.code,
      phones: phone(),
      params: { code: '2', minutes: '5' },
    });
    expect(r.statusCode, r.body).toBe(200);
    for (const secret of Object.values(SECRETS).filter(Boolean)) {
      expect(answers.some((a) => a.includes(secret))).toBe(false);
      expect(s.logs.some((l) => l.includes(secret))).toBe(false);
    }
  });

  it('the demo config is seeded, not enabled, with a receipt key of its own', async () => {
    const d = (await get(`/sms/detail?id=${SMS_DEMO.configId}`)).json().data;
    expect(d).toMatchObject({ smsCode: SMS_DEMO.code, enabled: 0 });
    expect(d.receiptKey).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});

describe('a device alarm texts its responsible person', () => {
  it('a reading past a threshold sends one SMS through the enabled config, delivered by its receipt', async () => {
    const alarmTemplate = '【{device}】{metric}告警:当前值 {value},阈值 {threshold}';
    sandbox.addTemplate('SMS_ALARM', alarmTemplate);
    const c = await config(SMS_PROVIDER.ali, { templateId: 'SMS_ALARM', templateContent: alarmTemplate });
    expect((await post('/sms/enable', { id: c.id })).statusCode).toBe(200);
    const hope = serviceCalls(
      () => s,
      '/api/dfem-hope-manage',
      () => token,
    );
    const serial = `SMS-${Date.now() % 100000}`;
    const dev = await hope.post('/smartPlant/deviceManage/submit', {
      name: '短信告警设备',
      kind: DEVICE_KIND.weather,
      serial,
      reportInterval: 10,
      thresholds: '{"airTemperature":{"high":30}}',
      responsibleId: '1123598821738675201',
    });
    expect(dev.statusCode, dev.body).toBe(200);
    const { id: deviceId, secret } = dev.json().data;
    const before = sandbox.calls.length;
    for (let i = 0; i < 3; i++)
      await s.app.telemetry.ingestor.accept(
        '000000',
        DEVICE_KIND.weather,
        serial,
        signedMessage(secret, { ts: Date.now() - 10_000 + i, values: { airTemperature: 36 + i } }),
      );
    await s.app.telemetry.ingestor.flush();
    await expect.poll(() => sandbox.calls.length - before, { timeout: 10_000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(sandbox.calls.length - before).toBe(1);
    const call = sandbox.calls[before];
    expect(call.phones).toEqual(['13800000000']);
    expect(call.params).toMatchObject({ device: '短信告警设备', metric: 'airTemperature', threshold: '30' });
    await sandbox.flushReceipts();
    const rows = await logOf(c.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      source: SMS_SOURCE.alarm,
      state: SMS_STATE.delivered,
      phone: '13800000000',
    });
    expect(String(deviceId)).toMatch(/^\d+$/);
  });
});

describe('what an attacker would try', () => {
  it('another tenant’s configs: 404 on detail, enable and send; its own list holds none of ours', async () => {
    const c = await config(SMS_PROVIDER.ali);
    expect((await get(`/sms/detail?id=${c.id}`, other)).statusCode).toBe(404);
    expect((await post('/sms/enable', { id: c.id }, other)).statusCode).toBe(404);
    expect(
      (
        await post(
          '/sms/endpoint/send-message',
          { code: c.code, phones: phone(), params: { code: '1', minutes: '5' } },
          other,
        )
      ).statusCode,
    ).toBe(404);
    const theirs = (await get('/sms/list', other)).json().data.records as { id: string }[];
    expect(theirs.some((x) => x.id === c.id)).toBe(false);
    const theirLog = (await get(`/smsLog/page?smsId=${c.id}`, other)).json().data.records as unknown[];
    expect(theirLog).toHaveLength(0);
  });

  it('without the button: send and enable are 403; the log is never written through the API', async () => {
    const role = await makeRole(s.database.db, '000000', 'sms_viewer');
    await grantCodes(s.database.db, role, ['sms', 'sms_view', 'sms_log', 'sms_log_view']);
    const viewer = (await signedInUser(s, 'sms_viewer', [role])).token;
    const c = await config(SMS_PROVIDER.ali);
    expect(
      (
        await post(
          '/sms/endpoint/send-message',
          { code: c.code, phones: phone(), params: { code: '1', minutes: '5' } },
          viewer,
        )
      ).statusCode,
    ).toBe(403);
    expect((await post('/sms/enable', { id: c.id }, viewer)).statusCode).toBe(403);
    expect(
      (await post('/smsLog/submit', { smsId: c.id, phone: phone(), state: '3', source: '1' })).statusCode,
    ).toBe(403);
    expect((await post(`/smsLog/remove?ids=1`)).statusCode).toBe(403);
  });

  it('an API address inside the server’s network is never posted to (SMS_ENDPOINT_HOSTS=public)', async () => {
    const port = new URL(sandbox.url).port;
    for (const endpoint of [`http://localhost:${port}`, 'http://10.0.0.1:9', 'http://169.254.169.254']) {
      const c = await config(SMS_PROVIDER.ali, { endpoint });
      const before = sandbox.calls.length;
      const r = await sendCode(c.code);
      expect(r.statusCode, r.body).toBe(502);
      expect(r.json().msg).toContain('EINNERADDRESS');
      expect(sandbox.calls.length).toBe(before);
    }
  });

  it('bad input is a 400, never a 500', async () => {
    const c = await config(SMS_PROVIDER.ali);
    const bad: object[] = [
      { code: c.code, phones: 'abc', params: { code: '1', minutes: '5' } },
      { code: c.code, phones: '', params: { code: '1', minutes: '5' } },
      { code: c.code, phones: phone(), params: '{not json' },
      { code: c.code, phones: phone(), params: '[1,2]' },
      { code: c.code, phones: phone(), params: { code: { nested: 1 }, minutes: '5' } },
      { code: c.code, phones: phone(), params: { code: 'x'.repeat(36), minutes: '5' } },
      { code: c.code, phones: Array.from({ length: 101 }, phone), params: { code: '1', minutes: '5' } },
      { code: c.code, phones: phone(), params: { code: '1', minutes: '5' }, extra: 1 },
    ];
    for (const body of bad) {
      const r = await post('/sms/endpoint/send-message', body);
      expect(r.statusCode, `${JSON.stringify(body).slice(0, 80)} → ${r.body}`).toBe(400);
    }
    for (const body of [
      {
        smsCode: 'bad code!',
        category: '3',
        templateId: 'x',
        templateContent: 'x',
        signName: 'x',
        accessKey: 'k',
        secretKey: 's',
      },
      {
        smsCode: 'ok',
        category: '9',
        templateId: 'x',
        templateContent: 'x',
        signName: 'x',
        accessKey: 'k',
        secretKey: 's',
      },
      { smsCode: 'ok2', category: '3', templateId: 'x', templateContent: 'x', signName: 'x', accessKey: 'k' },
      {
        smsCode: 'ok3',
        category: '5',
        templateId: 'x',
        templateContent: 'x',
        signName: 'x',
        accessKey: 'k',
        secretKey: 's',
        appId: 'a',
      },
      {
        smsCode: 'ok4',
        category: '3',
        templateId: 'x',
        templateContent: 'x',
        signName: 'x',
        accessKey: 'k',
        secretKey: 's',
        endpoint: 'http://h/path?q',
      },
    ]) {
      const r = await post('/sms/submit', body);
      expect(r.statusCode, `${JSON.stringify(body)} → ${r.body}`).toBe(400);
    }
    expect((await post('/sms/enable', { id: 'abc' })).statusCode).toBe(400);
    const receipt = await s.app.inject({
      method: 'POST',
      url: `/api/dfem-resource/sms/receipt/${c.id}/${c.key}`,
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(receipt.statusCode).toBe(200);
    expect(
      (await s.app.inject({ method: 'POST', url: '/api/dfem-resource/sms/receipt/%2e%2e/x' })).statusCode,
    ).toBe(404);
  });
});

// the log's rows are the tenant's: checked above through the list; here, that the rows carry no secret
it('no log row keeps a secret', async () => {
  const m = mountedResource('smsLog');
  const rows = await s.database.db
    .select()
    .from(m.table)
    .where(and(eq(m.cols.tenantId, '000000')));
  for (const secret of Object.values(SECRETS).filter(Boolean))
    expect(JSON.stringify(rows).includes(secret)).toBe(false);
});
