import { randomBytes } from 'node:crypto';
import {
  ATTACH_LIMITS,
  OSS_DEMO,
  OSS_LOCAL,
  ossResource,
  RESOURCE_AREA,
  SMS_DEMO,
  SMS_PROVIDER,
  smsResource,
} from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { tableOf } from '../../platform/crud/model';
import type { Db } from '../../platform/db';
import { addMissingParams, insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { attachHooks } from './attach-binding';
import { attachRoutes } from './attach-routes';
import { ossHooks } from './oss-binding';
import { smsHooks } from './sms/binding';
import { DEMO_SMS_SECRET, smsRoutes } from './sms/receipts';
import { seedSmsLimits } from './sms/send';

/**
 * 资源管理 on the server: the storage configs (`oss`: enable, test — oss-binding.ts), the SMS configs
 * (`sms`: enable, send — sms/binding.ts; receipts, the alarms' outbox and the sandbox — sms/receipts.ts)
 * and their log, and the attachments (`attach`: upload, download, the reference count — attach-binding.ts;
 * thumbnails — attach-routes.ts). The upload routes and
 * the storage layer every file goes through are the platform's (files.ts, uploads.ts, oss.ts), mounted for
 * every area.
 */
export const resourceArea = serverArea(RESOURCE_AREA, {
  hooks: (deps) => ({ oss: ossHooks(deps), sms: smsHooks(deps), attach: attachHooks(deps) }),
  routes: [
    { prefix: '/api/dfem-resource', plugin: smsRoutes },
    { prefix: '/api/dfem-resource', plugin: attachRoutes },
  ],
  seed: [
    ['resource-oss-v1', seedStorage],
    ['resource-sms-v1', seedSms],
    ['resource-attach-v1', seedAttachLimits],
  ],
});

/** Step `resource-oss-v1`: tenant 000000's files stay on the local disk, as an enabled config says. */
async function seedStorage(db: Db) {
  const oss = tableOf(ossResource);
  await insertAll(db, oss, [
    {
      id: OSS_DEMO.localId,
      tenantId: '000000',
      createUser: SEED.adminUserId,
      createDept: SEED.rootDeptId,
      ossCode: 'local',
      category: OSS_LOCAL,
      enabled: 1,
      remark: '本地磁盘(DATA_DIR/uploads):未配置对象存储时文件存放于此',
    },
  ]);
}

/**
 * Step `resource-sms-v1`: the rate limits' parameters, and tenant 000000's demo SMS config — Alibaba
 * Cloud's protocol, spoken to the SMS sandbox (`npm start`), not enabled: enable it on 短信配置 and the
 * demo devices' alarms text their responsible person.
 */
async function seedSms(db: Db) {
  await seedSmsLimits(db);
  await insertAll(db, tableOf(smsResource), [
    {
      id: SMS_DEMO.configId,
      tenantId: '000000',
      createUser: SEED.adminUserId,
      createDept: SEED.rootDeptId,
      smsCode: SMS_DEMO.code,
      category: SMS_PROVIDER.ali,
      templateId: SMS_DEMO.templateId,
      templateContent: SMS_DEMO.template,
      signName: '智慧乡村',
      accessKey: SMS_DEMO.accessKey,
      secretKey: DEMO_SMS_SECRET,
      regionId: 'cn-hangzhou',
      endpoint: 'http://127.0.0.1:8090',
      enabled: 0,
      receiptKey: randomBytes(24).toString('base64url'),
      remark: '演示配置:连接短信沙箱(npm start 时运行),设备告警模板',
    },
  ]);
}

/** Step `resource-attach-v1`: the attachments' limits on the parameter screen (per tenant: `<key>.<tenantId>`). */
async function seedAttachLimits(db: Db) {
  const { params, defaults } = ATTACH_LIMITS;
  await addMissingParams(db, [
    {
      paramName: '附件大小上限(MB)',
      paramKey: params.maxMb,
      paramValue: String(defaults.maxMb),
      remark: `附件管理上传的单个文件大小上限;${params.maxMb}.<租户ID> 可为单个租户另设`,
    },
    {
      paramName: '附件类型',
      paramKey: params.types,
      paramValue: defaults.types,
      remark: `附件管理可上传的类型(按文件内容识别),逗号分隔;${params.types}.<租户ID> 可为单个租户另设`,
    },
  ]);
}
