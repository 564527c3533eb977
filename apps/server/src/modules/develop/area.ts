import {
  DATASOURCE_KIND,
  DEVELOP_AREA,
  DEVELOP_DEMO,
  datasourceResource,
  modelPrototypeResource,
  modelResource,
  reportResource,
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
import { reportHooks } from './report-hooks';

/**
 * 研发工具 on the server: data sources (options allow-listed, a rate-limited connection test), models read
 * from their catalogs and their fields' prototypes (hooks.ts, catalog.ts, prototypes.ts), code generation
 * (code.ts, codegen.ts) and the reports (report.ts: design and pages; report-files.ts: PDF and Excel;
 * report-hooks.ts: the endpoints).
 */
export const developArea = serverArea(DEVELOP_AREA, {
  hooks: (deps) => ({
    datasource: datasourceHooks(deps),
    model: modelHooks(deps),
    modelPrototype: modelPrototypeHooks(),
    code: codeHooks(),
    report: reportHooks(deps),
  }),
  seed: [
    ['develop-v1', seedDevelop],
    ['develop-report-v1', seedReports],
  ],
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

/** Step `develop-report-v1`: two reports of tenant 000000, so 报表管理 opens on something to preview. */
async function seedReports(db: Db) {
  const by = { tenantId: '000000', createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  await insertAll(db, tableOf(reportResource), [
    {
      ...by,
      id: DEVELOP_DEMO.villagerReportId,
      name: '村民花名册',
      resourceKey: 'villager',
      content: JSON.stringify({
        columns: ['name', 'sex', 'householdNo', 'relation', 'villageGroup', 'politicalStatus', 'phone'],
        groupBy: 'villageGroup',
        totals: [{ field: 'name', op: 'count' }],
      }),
      rowsPerPage: 20,
      orientation: 'portrait',
      chartType: 'bar',
      remark: '演示报表:按村民小组分组,每组小计人数',
    },
    {
      ...by,
      id: DEVELOP_DEMO.noticeReportId,
      name: '通知公告一览',
      resourceKey: 'notice',
      content: JSON.stringify({ columns: ['title', 'category', 'releaseTime'] }),
      rowsPerPage: 10,
      orientation: 'landscape',
      chartType: 'none',
      remark: '演示报表:A4 横向,每页 10 行',
    },
  ]);
}
