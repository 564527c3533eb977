import { randomBytes } from 'node:crypto';
import {
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
import { insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { ossHooks } from './oss-binding';
import { smsHooks } from './sms/binding';
import { DEMO_SMS_SECRET, smsRoutes } from './sms/receipts';
import { seedSmsLimits } from './sms/send';

/**
 * 资源管理 on the server: the storage configs (`oss`: enable, test — oss-binding.ts), the SMS configs
 * (`sms`: enable, send — sms/binding.ts; receipts, the alarms' outbox and the sandbox — sms/receipts.ts)
 * and their log. The upload routes and
 * the storage layer every file goes through are the platform's (files.ts, uploads.ts, oss.ts), mounted for
 * every area.
 */
export const resourceArea = serverArea(RESOURCE_AREA, {
  hooks: (deps) => ({ oss: ossHooks(deps), sms: smsHooks(deps) }),
  routes: [{ prefix: '/api/dfem-resource', plugin: smsRoutes }],
  seed: [
    ['resource-oss-v1', seedStorage],
    ['resource-sms-v1', seedSms],
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
