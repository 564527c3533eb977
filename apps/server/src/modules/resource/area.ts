import { OSS_DEMO, OSS_LOCAL, ossResource, RESOURCE_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { tableOf } from '../../platform/crud/model';
import type { Db } from '../../platform/db';
import { insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { ossHooks } from './oss-binding';

/**
 * 资源管理 on the server: the storage configs (`oss`: enable, test — oss-binding.ts). The upload routes and
 * the storage layer every file goes through are the platform's (files.ts, uploads.ts, oss.ts), mounted for
 * every area.
 */
export const resourceArea = serverArea(RESOURCE_AREA, {
  hooks: (deps) => ({ oss: ossHooks(deps) }),
  seed: [['resource-oss-v1', seedStorage]],
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
