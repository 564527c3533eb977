import {
  DATASOURCE_KIND,
  DEVELOP_AREA,
  DEVELOP_DEMO,
  datasourceResource,
  modelPrototypeResource,
  modelResource,
} from '@smart/contracts';
import { serverArea } from '../../platform/area';
import type { Row } from '../../platform/crud/binding';
import { tableOf } from '../../platform/crud/model';
import type { Db } from '../../platform/db';
import { insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { tableInfo } from './catalog';
import { codeHooks } from './code';
import { datasourceHooks, modelHooks, modelPrototypeHooks } from './hooks';
import { prototypeOf } from './prototypes';

/**
 * 研发工具 on the server: data sources (options allow-listed, a rate-limited connection test), models read
 * from their catalogs and their fields' prototypes (hooks.ts, catalog.ts, prototypes.ts); the reports are
 * the platform's (`report`, its own table).
 */
export const developArea = serverArea(DEVELOP_AREA, {
  hooks: (deps) => ({
    datasource: datasourceHooks(deps),
    model: modelHooks(deps),
    modelPrototype: modelPrototypeHooks(),
    code: codeHooks(),
  }),
  seed: [['develop-v1', seedDevelop]],
});

/** Step `develop-v1`: the product's own database, a read-only data source of tenant 000000. */
async function seedDevelop(db: Db) {
  await insertAll(db, tableOf(datasourceResource), [
    {
      id: DEVELOP_DEMO.ownSourceId,
      tenantId: '000000',
      createUser: SEED.adminUserId,
      createDept: SEED.rootDeptId,
      name: '本系统数据库',
      kind: DATASOURCE_KIND.own,
      url: 'builtin',
      remark: '本系统自身的数据库:只读取表结构,不读写数据',
    },
  ]);
  // a model of the parameters table, its fields read from the catalog as 读取字段 reads them
  const info = await tableInfo({ kind: DATASOURCE_KIND.own } as Row, db, 'blade_param');
  const model = { tenantId: '000000', createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  await insertAll(db, tableOf(modelResource), [
    {
      ...model,
      id: DEVELOP_DEMO.modelId,
      datasourceId: DEVELOP_DEMO.ownSourceId,
      modelName: '参数',
      modelCode: 'param',
      modelTable: 'blade_param',
      modelClass: 'Param',
      modelRemark: '演示模型:系统参数表',
    },
  ]);
  await insertAll(
    db,
    tableOf(modelPrototypeResource),
    (info?.columns ?? []).map((c, i) => ({ ...model, ...prototypeOf(c, i), modelId: DEVELOP_DEMO.modelId })),
  );
}
