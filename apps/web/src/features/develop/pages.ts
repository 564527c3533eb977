/**
 * 研发工具's screens: 数据源管理 is the generic list with 测试连接 (the server's version, or the driver's code);
 * 模型管理 the generic list whose form holds the fields' prototypes as a grid, with 读取字段 (the table's
 * columns compared with the prototypes, applied after a look); 代码生成 the generic list with 预览代码 (the
 * generated files), 下载代码 (their zip) and 复制; 报表管理 the generic list with a designer of its
 * design (resource, columns, filters, group, totals) and 预览打印 (the pages, printed as shown, PDF, Excel).
 */
import { areaPages } from '../../platform/pages';

export const developPages = areaPages(
  'tool',
  () => import('@smart/contracts/develop').then((m) => m.DEVELOP_AREA),
  {
    own: {
      datasource: () => import('./DatasourcePage'),
      model: () => import('./ModelPage'),
      code: () => import('./CodePage'),
      report: () => import('./ReportPage'),
    },
  },
);
