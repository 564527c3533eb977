import { dictCodes, dictionary, numbered, SYSTEM_DICT } from './dicts';
import { area, dict, flag, ref, remark, text } from './fields';
import { areaResource, L, type Text2 } from './types';

/**
 * 短信 (spec §1 resource services, §4 "SMS configs have an enable action", §7 dfem-resource sms): a tenant's
 * SMS configs — one provider account, one template and its sign name each, one enabled — and the log of
 * every message sent through them, its state moved by the provider's delivery receipts. The providers are
 * the `sms` dictionary's: Yunpian, Qiniu, Alibaba Cloud, Tencent Cloud and Huawei Cloud, each spoken in its
 * own documented HTTP protocol (apps/server/src/modules/resource/sms/).
 */

/** The `sms` dictionary's keys (the family's 1–4, Huawei Cloud added). */
export const SMS_PROVIDER = { yunpian: '1', qiniu: '2', ali: '3', tencent: '4', huawei: '5' } as const;
export type SmsProviderKey = keyof typeof SMS_PROVIDER;

/** Where each provider answers when a config names no address of its own (Huawei's is per application). */
export const SMS_DEFAULT_ENDPOINT: Record<string, string | null> = {
  [SMS_PROVIDER.yunpian]: 'https://sms.yunpian.com',
  [SMS_PROVIDER.qiniu]: 'https://sms.qiniuapi.com',
  [SMS_PROVIDER.ali]: 'https://dysmsapi.aliyuncs.com',
  [SMS_PROVIDER.tencent]: 'https://sms.tencentcloudapi.com',
  [SMS_PROVIDER.huawei]: null,
};

export const SMS_DICTS = [
  dictionary(
    'sms_state',
    L('短信状态', 'SMS state'),
    numbered([
      ['已提交', 'Submitted'],
      ['已发送', 'Sent'],
      ['已送达', 'Delivered'],
      ['发送失败', 'Failed'],
    ]),
  ),
  dictionary(
    'sms_source',
    L('短信来源', 'SMS source'),
    numbered([
      ['手动发送', 'Sent by hand'],
      ['设备告警', 'Device alarm'],
    ]),
  ),
] as const;
export const SMS_DICT = dictCodes(SMS_DICTS);

/** `sms_state` keys: submitted (written, not yet accepted), sent (the provider took it), delivered, failed. */
export const SMS_STATE = { submitted: '1', sent: '2', delivered: '3', failed: '4' } as const;
export const SMS_SOURCE = { manual: '1', alarm: '2' } as const;

/** The demo config the seed adds for tenant 000000, speaking to the SMS sandbox (`SMS_SANDBOX=on`). */
export const SMS_DEMO = {
  configId: '1190000000003600001',
  code: 'alarm-sms',
  accessKey: 'LTAIdemo5mArtAdm1n',
  templateId: 'SMS_480000001',
  template: '【{device}】{metric}告警:当前值 {value},阈值 {threshold},请及时处理',
} as const;

/** A template's placeholder: `{code}`, a letter or _ then letters, digits or _. */
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]{0,31})\}/g;

/** The placeholders of a template, in the order they first appear (Tencent's and Huawei's params are ordered). */
export function smsPlaceholders(template: string): string[] {
  const out: string[] = [];
  for (const m of template.matchAll(PLACEHOLDER)) if (!out.includes(m[1])) out.push(m[1]);
  return out;
}

/** How long one param's value may be (the providers' own limit on a template variable). */
export const SMS_PARAM_MAX = 35;
/** How many phones one send may name. */
export const SMS_PHONES_MAX = 100;

/** What is wrong with a send's params for a template, in both languages; null when nothing is. */
export function smsParamsProblem(template: string, params: Record<string, unknown>): Text2 | null {
  const wanted = smsPlaceholders(template);
  const missing = wanted.filter(
    (k) => params[k] === undefined || params[k] === null || String(params[k]) === '',
  );
  if (missing.length)
    return L(
      `缺少模板参数:${missing.map((k) => `{${k}}`).join('、')}`,
      `Missing template params: ${missing.map((k) => `{${k}}`).join(', ')}`,
    );
  const unknown = Object.keys(params).filter((k) => !wanted.includes(k));
  if (unknown.length)
    return L(
      `模板中没有参数:${unknown.join('、')}`,
      `The template has no params named ${unknown.join(', ')}`,
    );
  const long = wanted.find((k) => String(params[k]).length > SMS_PARAM_MAX);
  if (long)
    return L(
      `模板参数 {${long}} 不能超过 ${SMS_PARAM_MAX} 个字符`,
      `Template param {${long}} may be at most ${SMS_PARAM_MAX} characters`,
    );
  return null;
}

/** The text a template gives with these params. */
export function smsRender(template: string, params: Record<string, unknown>): string {
  return template.replace(PLACEHOLDER, (whole, k: string) =>
    params[k] === undefined ? whole : String(params[k]),
  );
}

/** A mainland mobile number (as the providers take it, without +86). */
export const SMS_PHONE = '^1[3-9][0-9]{9}$';

const resourceArea = areaResource('dfem-resource', 'resource');
const needsAppId = { field: 'category', is: [SMS_PROVIDER.tencent, SMS_PROVIDER.huawei] } as const;
const needsEndpoint = { field: 'category', is: [SMS_PROVIDER.huawei] } as const;
const needsSecret = {
  field: 'category',
  is: [SMS_PROVIDER.qiniu, SMS_PROVIDER.ali, SMS_PROVIDER.tencent, SMS_PROVIDER.huawei],
} as const;

/**
 * 短信配置: a provider account with one template. The secret key is write-only (never answered, never
 * logged; empty on edit keeps it). `enabled` is written only by `sms/enable` (one per tenant). The receipt
 * key is the server's: the address the provider posts delivery receipts to ends with it, so only a
 * provider told the address can move a message's state.
 */
export const smsResource = resourceArea(
  'sms',
  'blade_sms',
  'MessageOutlined',
  L('短信配置', 'SMS configs'),
  'sms',
  'sms',
  [
    text('smsCode', L('资源编号', 'Code'), 32, {
      required: true,
      search: 'like',
      pattern: '^[A-Za-z0-9_-]{1,32}$',
      patternMessage: L('资源编号为字母、数字、下划线或连字符', 'A code is letters, digits, _ or -'),
      example: 'sms-ali-001',
    }),
    dict('category', L('服务商', 'Provider'), SYSTEM_DICT.sms, {
      required: true,
      search: 'equal',
      example: '3',
    }),
    text('templateId', L('模板ID', 'Template ID'), 64, {
      required: true,
      pattern: '^[\\x21-\\x7e]{1,64}$',
      patternMessage: L('模板ID不能含空格', 'A template ID has no spaces'),
      example: 'SMS_480000001',
    }),
    area('templateContent', L('模板内容', 'Template text'), 500, {
      required: true,
      list: true,
      example: '您的验证码为{code},5分钟内有效',
    }),
    text('signName', L('短信签名', 'Sign name'), 32, { required: true, example: '智慧乡村' }),
    text('accessKey', L('AccessKey', 'Access key'), 128, {
      required: true,
      list: false,
      pattern: '^[\\x21-\\x7e]{1,128}$',
      patternMessage: L('AccessKey 不能含空格', 'An access key has no spaces'),
      example: 'LTAI5tExampleKey',
    }),
    text('secretKey', L('SecretKey', 'Secret key'), 128, {
      secret: true,
      list: false,
      requiredWhen: needsSecret,
      pattern: '^[\\x21-\\x7e]{1,128}$',
      patternMessage: L('SecretKey 不能含空格', 'A secret key has no spaces'),
      example: 'ExampleSecretKey0123456789',
    }),
    text('appId', L('应用ID / 通道号', 'App ID / sender'), 64, {
      list: false,
      requiredWhen: needsAppId,
      pattern: '^[\\x21-\\x7e]{1,64}$',
      patternMessage: L('应用ID不能含空格', 'An app ID has no spaces'),
      example: '1400000001',
    }),
    text('regionId', L('地域', 'Region'), 32, {
      list: false,
      pattern: '^[a-z0-9-]{2,32}$',
      patternMessage: L('地域为小写字母、数字或连字符', 'A region is lower-case letters, digits or hyphens'),
      example: 'cn-hangzhou',
    }),
    text('endpoint', L('接口地址', 'API address'), 255, {
      list: false,
      requiredWhen: needsEndpoint,
      pattern: '^https?://[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?/?$',
      patternMessage: L(
        '地址须为 http(s)://主机[:端口],不含路径;留空则用服务商的默认地址',
        'An address is http(s)://host[:port] without a path; empty: the provider’s own',
      ),
      example: 'https://dysmsapi.aliyuncs.com',
    }),
    flag('enabled', L('启用', 'Enabled'), { readOnly: true, form: false }),
    text('receiptKey', L('回执密钥', 'Receipt key'), 43, { readOnly: true, form: false, list: false }),
    remark(),
  ],
  { listPath: 'list', unique: ['smsCode'], select: { label: 'smsCode', search: ['smsCode', 'signName'] } },
);

/** 短信日志: each message sent, one row per phone, its state moved by the provider's answer and receipts. */
export const smsLogResource = resourceArea(
  'smsLog',
  'app_sms_log',
  'FileTextOutlined',
  L('短信日志', 'SMS log'),
  'sms-log',
  'sms_log',
  [
    ref('smsId', L('短信配置', 'SMS config'), 'sms', SMS_DEMO.configId, { required: true }),
    text('phone', L('手机号', 'Phone'), 20, { required: true, search: 'equal', example: '13800000000' }),
    dict('state', L('状态', 'State'), SMS_DICT.sms_state, { required: true, search: 'equal', example: '2' }),
    dict('source', L('来源', 'Source'), SMS_DICT.sms_source, {
      required: true,
      search: 'equal',
      example: '1',
    }),
    area('content', L('内容', 'Content'), 600, { list: true }),
    text('params', L('参数', 'Params'), 1000, { list: false }),
    text('requestId', L('请求ID', 'Request ID'), 64, { list: false }),
    text('messageId', L('回执ID', 'Message ID'), 96, { search: 'equal' }),
    text('errorCode', L('错误码', 'Error code'), 64),
    text('errorMessage', L('错误信息', 'Error message'), 255, { list: false }),
    { name: 'sentAt', label: L('发送时间', 'Sent at'), type: 'datetime' },
    { name: 'deliveredAt', label: L('送达时间', 'Delivered at'), type: 'datetime' },
    // when a server took an alarm's message from the outbox to send it (the server's own bookkeeping)
    {
      name: 'claimedAt',
      label: L('取出时间', 'Claimed at'),
      type: 'datetime',
      readOnly: true,
      list: false,
      form: false,
      view: false,
    },
  ],
  {
    readOnly: true,
    defaultSort: { field: 'createTime', desc: true },
    // the outbox: alarms' messages not yet sent, whichever tenant (send.ts)
    indexes: [{ name: 'outbox', fields: ['createTime'], where: "state = '1' and source = '2'" }],
  },
);
