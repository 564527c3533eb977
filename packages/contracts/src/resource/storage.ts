import { attachResource } from './attach';
import { SYSTEM_DICT } from './dicts';
import { dict, flag, remark, text } from './fields';
import { SMS_DICTS, smsLogResource, smsResource } from './sms';
import { areaResource, defineArea, L, type Text2 } from './types';

/**
 * 资源管理 (spec §1 resource services, §4 "SMS and OSS configs each have an enable action", §7 dfem-resource):
 * the object storage configs (对象存储), the SMS configs and their log (sms.ts); attachments join next. A tenant's files
 * live where its enabled config says — the local disk under DATA_DIR (the default) or an S3-compatible
 * bucket (MinIO, Aliyun OSS, Tencent COS, Qiniu and Huawei OBS through their S3 endpoints) — and a stored
 * file keeps the config it was written to, so switching configs leaves old files where they are.
 */

/** The `oss` dictionary's key of the local disk; every other category speaks S3. */
export const OSS_LOCAL = '5';

/** The local-disk config the seed enables for tenant 000000. */
export const OSS_DEMO = { localId: '1190000000003500001' } as const;

/** An S3 endpoint or public domain: http(s), a host (and port), no path, query or credentials. */
export const OSS_ENDPOINT = '^https?://[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?/?$';
/** A bucket name as S3 accepts it: 3–63 lower-case letters, digits, dots and hyphens. */
export const OSS_BUCKET = '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$';

/** The probe a test writes, reads and removes, in this order. */
export const OSS_TEST_STEPS = ['put', 'head', 'get', 'delete'] as const;
export type OssTestStep = (typeof OSS_TEST_STEPS)[number];
export const OSS_TEST_STEP_LABELS: Record<OssTestStep, Text2> = {
  put: L('上传探测文件', 'Put a probe object'),
  head: L('读取文件信息', 'Head the probe object'),
  get: L('下载并比对内容', 'Get it and compare'),
  delete: L('删除探测文件', 'Delete the probe object'),
};

/** One step of a storage test: whether it passed, and the provider's own code and message when it did not. */
export interface OssTestStepResult {
  step: OssTestStep;
  ok: boolean;
  /** the provider's error code (`SignatureDoesNotMatch`, `NoSuchBucket`), or a network error's */
  code: string | null;
  message: string | null;
  /** the HTTP status the provider answered, when it answered */
  status: number | null;
  ms: number;
}

/** What `oss/test` answers. */
export interface OssTestResult {
  ok: boolean;
  steps: OssTestStepResult[];
}

const s3Only = { field: 'category', is: ['1', '2', '3', '4'] } as const;

const resourceArea = areaResource('dfem-resource', 'resource');

/**
 * 对象存储: a tenant's storage configs. The secret key is write-only (never answered, never logged; empty on
 * edit keeps it). `enabled` is written only by `oss/enable`, which makes this config the tenant's one
 * active config in one transaction. `signExpiry` is how long a signed download link of a private bucket
 * lives.
 */
export const ossResource = resourceArea(
  'oss',
  'blade_oss',
  'CloudServerOutlined',
  L('对象存储', 'Object storage'),
  'oss',
  'oss',
  [
    text('ossCode', L('资源编号', 'Code'), 32, {
      required: true,
      search: 'like',
      pattern: '^[A-Za-z0-9_-]{1,32}$',
      patternMessage: L('资源编号为字母、数字、下划线或连字符', 'A code is letters, digits, _ or -'),
      example: 'oss-minio-001',
    }),
    dict('category', L('存储类型', 'Kind'), SYSTEM_DICT.oss, {
      required: true,
      search: 'equal',
      example: '1',
    }),
    text('endpoint', L('内部地址', 'Internal endpoint'), 255, {
      pattern: OSS_ENDPOINT,
      patternMessage: L(
        '地址须为 http(s)://主机[:端口],不含路径',
        'An endpoint is http(s)://host[:port], without a path',
      ),
      requiredWhen: s3Only,
      example: 'http://127.0.0.1:9000',
    }),
    text('transformEndpoint', L('访问域名', 'Public domain'), 255, {
      list: false,
      pattern: OSS_ENDPOINT,
      patternMessage: L(
        '访问域名须为 http(s)://主机[:端口],不含路径',
        'A public domain is http(s)://host[:port], without a path',
      ),
      example: 'http://localhost:9000',
    }),
    text('bucketName', L('存储桶', 'Bucket'), 63, {
      pattern: OSS_BUCKET,
      patternMessage: L(
        '存储桶为 3 到 63 位小写字母、数字、点或连字符',
        'A bucket is 3 to 63 lower-case letters, digits, dots or hyphens',
      ),
      requiredWhen: s3Only,
      example: 'smart-files',
    }),
    text('region', L('区域', 'Region'), 32, {
      list: false,
      pattern: '^[a-z0-9-]{2,32}$',
      patternMessage: L('区域为小写字母、数字或连字符', 'A region is lower-case letters, digits or hyphens'),
      example: 'us-east-1',
    }),
    flag('pathStyle', L('路径风格', 'Path style'), { list: false, default: 1 }),
    flag('isPublic', L('公开读', 'Public read'), { default: 0 }),
    text('accessKey', L('AccessKey', 'Access key'), 128, {
      list: false,
      requiredWhen: s3Only,
      pattern: '^[\\x21-\\x7e]{1,128}$',
      patternMessage: L('AccessKey 不能含空格', 'An access key has no spaces'),
      example: 'S3RVER',
    }),
    text('secretKey', L('SecretKey', 'Secret key'), 128, {
      secret: true,
      list: false,
      pattern: '^[\\x21-\\x7e]{1,128}$',
      patternMessage: L('SecretKey 不能含空格', 'A secret key has no spaces'),
      example: 'S3RVER',
    }),
    {
      name: 'signExpiry',
      label: L('签名有效期', 'Signed link lifetime'),
      type: 'int',
      list: false,
      min: 1,
      max: 604_800,
      default: 600,
      unit: L('秒', 's'),
    },
    flag('enabled', L('启用', 'Enabled'), { readOnly: true, form: false }),
    remark(),
  ],
  { listPath: 'list', unique: ['ossCode'] },
);

/** The resource services' folder (资源管理). */
export const RESOURCE_AREA = defineArea({
  code: 'resource',
  label: L('资源管理', 'Resources'),
  icon: 'CloudOutlined',
  resources: [ossResource, smsResource, smsLogResource, attachResource],
  dicts: SMS_DICTS,
  buttons: {
    oss: [
      { code: 'enable', label: L('启用', 'Enable') },
      { code: 'test', label: L('测试', 'Test') },
    ],
    sms: [
      { code: 'enable', label: L('启用', 'Enable') },
      { code: 'send', label: L('发送测试', 'Send a test') },
    ],
    attach: [
      { code: 'upload', label: L('上传', 'Upload') },
      { code: 'download', label: L('下载', 'Download') },
    ],
  },
});
