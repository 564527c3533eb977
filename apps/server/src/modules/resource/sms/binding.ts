import { randomBytes } from 'node:crypto';
import { SMS_PHONE, SMS_PHONES_MAX, SMS_PROVIDER } from '@smart/contracts';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../../platform/config';
import type { ResourceHooks, Row } from '../../../platform/crud/binding';
import { endpoint } from '../../../platform/crud/endpoints';
import { FieldInputError, invalidField, notFound } from '../../../platform/http/errors';
import { enableOnly, idIn, theId } from '../enable-one';
import { sendNow, smsReach } from './send';

/**
 * 短信配置 (`sms`, dfem-resource) on the engine: list, detail, submit and remove are the engine's; this
 * binding adds
 * - **enable** (`POST sms/enable { id }` or `?id=`, button `sms_enable`): this config on, every other of
 *   the tenant off, in one transaction (enable-one.ts);
 * - **send** (`POST sms/endpoint/send-message { code, phones, params }`, button `sms_send`): the config
 *   whose 资源编号 is `code` (the enabled one when no code is sent) texts `phones` (comma-joined or a list)
 *   with `params` (an object, or its JSON as the family's clients send it) — send.ts;
 * - the receipt key: made once when a config is added, the last part of the address its provider posts
 *   delivery receipts to (receipts.ts). The secret key is write-only (the definition's `secret`).
 */

const PROVIDERS = new Set<string>(Object.values(SMS_PROVIDER));
const NEEDS_SECRET = new Set<string>([
  SMS_PROVIDER.qiniu,
  SMS_PROVIDER.ali,
  SMS_PROVIDER.tencent,
  SMS_PROVIDER.huawei,
]);

/** Where a config's provider posts its receipts, below the server's public address. */
export const receiptPath = (configId: string, key: string) =>
  `/api/dfem-resource/sms/receipt/${configId}/${key}`;

export const publicBase = (config: Pick<Config, 'PUBLIC_URL' | 'PORT'>) =>
  (config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/$/, '');

const Send = z
  .object({
    code: z.string().max(32).optional(),
    phones: z.union([z.string().max(2400), z.array(z.string().max(20)).max(SMS_PHONES_MAX)]),
    params: z
      .union([z.string().max(4000), z.record(z.string().max(32), z.union([z.string(), z.number()]))])
      .optional(),
  })
  .strict();

function phonesOf(v: string | string[]): string[] {
  const list = (Array.isArray(v) ? v : v.split(/[,，\s]+/)).map((p) => p.trim()).filter(Boolean);
  const unique = [...new Set(list)];
  if (!unique.length) throw invalidField('phones');
  if (unique.length > SMS_PHONES_MAX)
    throw new FieldInputError('phones', {
      zh: `一次最多发送 ${SMS_PHONES_MAX} 个手机号`,
      en: `At most ${SMS_PHONES_MAX} phones at a time`,
    });
  const bad = unique.find((p) => !new RegExp(SMS_PHONE).test(p));
  if (bad)
    throw new FieldInputError('phones', { zh: `手机号格式不正确:${bad}`, en: `Not a mobile number: ${bad}` });
  return unique;
}

function paramsOf(v: string | Record<string, string | number> | undefined): Record<string, string> {
  if (v === undefined || v === '') return {};
  let o: unknown = v;
  if (typeof v === 'string') {
    try {
      o = JSON.parse(v);
    } catch {
      throw new FieldInputError('params', { zh: '参数须为 JSON 对象', en: 'Params must be a JSON object' });
    }
  }
  if (!o || typeof o !== 'object' || Array.isArray(o))
    throw new FieldInputError('params', { zh: '参数须为 JSON 对象', en: 'Params must be a JSON object' });
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(o as Record<string, unknown>)) {
    if (typeof x !== 'string' && typeof x !== 'number')
      throw new FieldInputError('params', {
        zh: `参数 ${k} 须为文字或数字`,
        en: `Param ${k} must be text or a number`,
      });
    out[k] = String(x);
  }
  return out;
}

export function smsHooks(deps: { config: Config }): ResourceHooks {
  return {
    beforeWrite(_ctx, record, mode, _id, original) {
      const category = String(Object.hasOwn(record, 'category') ? record.category : original?.category);
      if (!PROVIDERS.has(category))
        throw new FieldInputError('category', {
          zh: '请选择短信服务商',
          en: 'Please choose an SMS provider',
        });
      if (mode === 'create' && NEEDS_SECRET.has(category) && !record.secretKey)
        throw new FieldInputError('secretKey', { zh: '请输入 SecretKey', en: 'Please enter the secret key' });
      if (mode === 'create') record.receiptKey = randomBytes(24).toString('base64url');
    },
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'enable',
        codeSuffix: '_enable',
        query: idIn,
        body: idIn,
        handler: ({ ctx, resource, scope, query, body }) =>
          enableOnly(resource, ctx, scope, theId(query, body)),
      }),
      endpoint({
        method: 'POST',
        path: 'endpoint/send-message',
        codeSuffix: '_send',
        query: z.object({}).strict(),
        body: Send,
        async handler({ ctx, resource, scope, body }) {
          const phones = phonesOf(body.phones);
          const params = paramsOf(body.params);
          const [row] = await resource.db
            .select()
            .from(resource.table)
            .where(
              and(scope, body.code ? eq(resource.cols.smsCode, body.code) : eq(resource.cols.enabled, 1)),
            )
            .limit(1);
          if (!row) throw notFound();
          const config = row as Row;
          const url = `${publicBase(deps.config)}${receiptPath(String(config.id), String(config.receiptKey ?? ''))}`;
          return sendNow(resource.db, ctx, config, phones, params, url, smsReach(deps.config));
        },
      }),
    ],
  };
}
