import { dictCodes, dictionary } from './dicts';
import { dict, flag, ref, remark, text } from './fields';
import { areaResource, defineArea, L, type ResourceDef } from './types';

/**
 * 研发工具 (spec §1 developer tools, §7 dfem-develop): data sources and models read from them — a model is a
 * table of a data source with, per column, the BladeX field prototype (how the column becomes a property, a
 * list column, a form control, a query) — beside the reports (报表管理, dfem-report). A data source is made
 * of structured fields, never a connection string, and its options are allow-listed (datasource.ts on the
 * server); the product's own database is always there as a read-only source (`DEVELOP_DEMO.ownSourceId`).
 */

export const DEVELOP_DICTS = [
  dictionary('datasource_kind', L('数据源类型', 'Data source kind'), [
    { key: '0', zh: '本系统数据库(只读)', en: 'This system’s database (read-only)' },
    { key: '1', zh: 'PostgreSQL', en: 'PostgreSQL' },
    { key: '2', zh: 'MySQL / MariaDB', en: 'MySQL / MariaDB' },
  ]),
  dictionary('component_type', L('组件类型', 'Component'), [
    { key: 'input', zh: '单行文本', en: 'Input' },
    { key: 'textarea', zh: '多行文本', en: 'Text area' },
    { key: 'editor', zh: '富文本', en: 'Rich text' },
    { key: 'select', zh: '下拉选择', en: 'Select' },
    { key: 'tree', zh: '树选择', en: 'Tree select' },
    { key: 'radio', zh: '单选', en: 'Radio' },
    { key: 'checkbox', zh: '多选', en: 'Checkbox' },
    { key: 'switch', zh: '开关', en: 'Switch' },
    { key: 'date', zh: '日期', en: 'Date' },
  ]),
  dictionary('code_template', L('代码模板', 'Code template'), [
    { key: 'single', zh: '单表', en: 'Single table' },
    { key: 'tree', zh: '树表', en: 'Tree' },
    { key: 'sub', zh: '主子表', en: 'Master-detail' },
  ]),
  dictionary('report_orientation', L('纸张方向', 'Orientation'), [
    { key: 'portrait', zh: 'A4 纵向', en: 'A4 portrait' },
    { key: 'landscape', zh: 'A4 横向', en: 'A4 landscape' },
  ]),
  dictionary('report_chart', L('报表图表', 'Report chart'), [
    { key: 'none', zh: '无', en: 'None' },
    { key: 'bar', zh: '柱状图', en: 'Bar' },
    { key: 'line', zh: '折线图', en: 'Line' },
    { key: 'pie', zh: '饼图', en: 'Pie' },
  ]),
  dictionary('query_type', L('查询方式', 'Query type'), [
    { key: 'equal', zh: '等于', en: 'Equal' },
    { key: 'notEqual', zh: '不等于', en: 'Not equal' },
    { key: 'like', zh: '模糊', en: 'Like' },
    { key: 'likeLeft', zh: '左模糊', en: 'Ends with' },
    { key: 'likeRight', zh: '右模糊', en: 'Starts with' },
    { key: 'gt', zh: '大于', en: 'Greater than' },
    { key: 'ge', zh: '大于等于', en: 'At least' },
    { key: 'lt', zh: '小于', en: 'Less than' },
    { key: 'le', zh: '小于等于', en: 'At most' },
    { key: 'between', zh: '区间', en: 'Between' },
  ]),
] as const;
export const DEVELOP_DICT = dictCodes(DEVELOP_DICTS);

export const DATASOURCE_KIND = { own: '0', postgres: '1', mysql: '2' } as const;

/** The read-only source of the product's own database, and a model of its parameters table, seeded for tenant 000000. */
export const DEVELOP_DEMO = {
  ownSourceId: '1190000000003700001',
  modelId: '1190000000003700101',
  /** 村民花名册 (villagers by group, a bar chart) and 通知公告一览 (notices, landscape) */
  villagerReportId: '1190000000003700201',
  noticeReportId: '1190000000003700202',
} as const;

/**
 * The connection options a data source may carry (`key=value` joined by `&`), by kind, each with the values
 * it takes: nothing that reads a server file (`sslrootcert`, `sslkey`, MySQL's `LOCAL INFILE`), runs code or
 * points elsewhere is accepted.
 */
export const DATASOURCE_OPTIONS: Record<string, Record<string, RegExp>> = {
  [DATASOURCE_KIND.postgres]: {
    sslmode: /^(disable|prefer|require|verify-ca|verify-full)$/,
    connect_timeout: /^[1-9][0-9]?$/,
    application_name: /^[A-Za-z0-9_-]{1,32}$/,
  },
  [DATASOURCE_KIND.mysql]: {
    charset: /^(utf8mb4|utf8|latin1)$/,
    ssl: /^(true|false)$/,
    connectTimeout: /^[1-9][0-9]{0,4}$/,
  },
};

/** The allow-listed options of a text, or the first key or value that is not allowed. */
export function parseDatasourceOptions(
  kind: string,
  text: string | null | undefined,
): { ok: true; options: Record<string, string> } | { ok: false; bad: string } {
  const allowed = DATASOURCE_OPTIONS[kind] ?? {};
  const options: Record<string, string> = {};
  if (!text) return { ok: true, options };
  for (const pair of text.split('&')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    const rule = Object.hasOwn(allowed, key) ? allowed[key] : undefined;
    if (!rule?.test(value)) return { ok: false, bad: key || pair };
    options[key] = value;
  }
  return { ok: true, options };
}

/** A host name or an address: letters, digits, dots, hyphens (IPv6 in brackets is not taken). */
export const DATASOURCE_HOST = '^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$';
/** A database, table or user name as both databases take it unquoted. */
export const SQL_NAME = '^[A-Za-z_][A-Za-z0-9_$]{0,62}$';

const resourceArea = areaResource('dfem-develop', 'tool');
const external = { field: 'kind', is: [DATASOURCE_KIND.postgres, DATASOURCE_KIND.mysql] } as const;

/**
 * 数据源管理: where models are read from. The password is write-only (never answered, kept when an edit leaves
 * it empty). `url` is answered (read-only) in the family's JDBC form for its screens; it is never read.
 */
export const datasourceResource = resourceArea(
  'datasource',
  'blade_datasource',
  'DatabaseOutlined',
  L('数据源管理', 'Data sources'),
  'datasource',
  'datasource',
  [
    text('name', L('名称', 'Name'), 64, { required: true, search: 'like', example: '业务库001' }),
    dict('kind', L('类型', 'Kind'), DEVELOP_DICT.datasource_kind, {
      required: true,
      search: 'equal',
      example: '1',
    }),
    text('host', L('主机', 'Host'), 253, {
      requiredWhen: external,
      pattern: DATASOURCE_HOST,
      patternMessage: L('主机为域名或 IP 地址', 'A host is a name or an IP address'),
      example: '127.0.0.1',
    }),
    {
      name: 'port',
      label: L('端口', 'Port'),
      type: 'int',
      min: 1,
      max: 65535,
      requiredWhen: external,
      example: 5432,
    },
    text('databaseName', L('数据库', 'Database'), 63, {
      requiredWhen: external,
      pattern: SQL_NAME,
      patternMessage: L('数据库名为字母、数字或下划线', 'A database name is letters, digits or _'),
      example: 'postgres',
    }),
    text('username', L('用户名', 'User'), 63, {
      requiredWhen: external,
      list: false,
      pattern: SQL_NAME,
      patternMessage: L('用户名为字母、数字或下划线', 'A user name is letters, digits or _'),
      example: 'postgres',
    }),
    text('password', L('密码', 'Password'), 128, { secret: true, list: false, example: 'secret' }),
    text('options', L('连接参数', 'Options'), 255, {
      list: false,
      example: 'sslmode=disable',
    }),
    text('url', L('连接地址', 'URL'), 400, { readOnly: true, form: false, list: false }),
    remark(),
  ],
  { listPath: 'list', unique: ['name'], select: { label: 'name', search: ['name'] } },
);

/**
 * A column's prototype in a model: the BladeX field settings of code generation. Written with its model (the
 * form's grid, `prototypes`) or as a list (`model-prototype/submit-list`); no screen of its own.
 */
export const modelPrototypeResource = resourceArea(
  'modelPrototype',
  'blade_model_prototype',
  'ProfileOutlined',
  L('模型字段', 'Model fields'),
  'model-prototype',
  'model',
  [
    ref('modelId', L('模型', 'Model'), 'model', DEVELOP_DEMO.modelId, { required: true }),
    text('jdbcName', L('字段名', 'Column'), 63, {
      required: true,
      pattern: SQL_NAME,
      example: 'param_name001',
    }),
    text('jdbcType', L('字段类型', 'Column type'), 64, { required: true, example: 'varchar(255)' }),
    text('jdbcComment', L('字段说明', 'Comment'), 255, { example: '参数名' }),
    text('propertyName', L('属性名', 'Property'), 64, {
      required: true,
      pattern: '^[a-z][A-Za-z0-9]{0,63}$',
      patternMessage: L(
        '属性名为小写字母开头的字母或数字',
        'A property is letters and digits, lower-case first',
      ),
      example: 'paramName',
    }),
    text('propertyType', L('属性类型', 'Property type'), 32, { required: true, example: 'String' }),
    flag('isList', L('列表显示', 'In list'), { default: 1 }),
    flag('isForm', L('表单显示', 'In form'), { default: 1 }),
    flag('isRow', L('独占一行', 'Full row')),
    flag('isRequired', L('必填', 'Required')),
    dict('componentType', L('组件类型', 'Component'), DEVELOP_DICT.component_type, {
      example: 'input',
      default: 'input',
    }),
    text('dictCode', L('字典编号', 'Dictionary'), 64, { example: 'sex' }),
    flag('isQuery', L('查询', 'Query')),
    dict('queryType', L('查询方式', 'Query type'), DEVELOP_DICT.query_type, {
      example: 'equal',
      default: 'equal',
    }),
    { name: 'sort', label: L('排序', 'Sort'), type: 'int', min: 0, max: 10_000, default: 0 },
  ],
  {
    path: 'model-prototype',
    listPath: 'list',
    unique: [['modelId', 'jdbcName']],
    defaultSort: { field: 'sort' },
  },
);

/** 模型管理: one table of a data source, named for the code it generates. */
export const modelResource = resourceArea(
  'model',
  'blade_model',
  'ClusterOutlined',
  L('模型管理', 'Models'),
  'model',
  'model',
  [
    ref('datasourceId', L('数据源', 'Data source'), 'datasource', DEVELOP_DEMO.ownSourceId, {
      required: true,
    }),
    text('modelName', L('模型名称', 'Model name'), 64, { required: true, search: 'like', example: '村民' }),
    text('modelCode', L('模型编号', 'Model code'), 64, {
      required: true,
      search: 'like',
      pattern: '^[a-z][A-Za-z0-9]{0,63}$',
      patternMessage: L(
        '模型编号为小写字母开头的字母或数字',
        'A model code is letters and digits, lower-case first',
      ),
      example: 'param001',
    }),
    text('modelTable', L('物理表名', 'Table'), 63, {
      required: true,
      search: 'like',
      pattern: SQL_NAME,
      patternMessage: L('表名为字母、数字或下划线', 'A table name is letters, digits or _'),
      example: 'blade_param',
    }),
    text('modelClass', L('类名', 'Class name'), 64, {
      required: true,
      pattern: '^[A-Z][A-Za-z0-9]{0,63}$',
      patternMessage: L(
        '类名为大写字母开头的字母或数字',
        'A class name is letters and digits, upper-case first',
      ),
      example: 'Villager',
    }),
    remark({ name: 'modelRemark' }),
  ],
  {
    listPath: 'list',
    unique: ['modelCode'],
    select: { label: 'modelName', search: ['modelName', 'modelCode'] },
    children: [
      {
        name: 'prototypes',
        resource: modelPrototypeResource,
        via: 'modelId',
        label: L('字段', 'Fields'),
        row: L('第{n}个字段', 'Field {n}'),
        add: L('添加字段', 'Add a field'),
        max: 300,
      },
    ],
  },
);

/** A property name (lower-case first), as a model's prototypes name their columns. */
export const PROPERTY_NAME = '^[a-z][A-Za-z0-9]{0,63}$';

/**
 * 代码生成: a model and a template (single table, tree, master-detail) made into this product's own code — the
 * definition in the contracts package, its migration, its server and web entries and a test
 * (`modules/develop/codegen.ts` on the server). `copy` duplicates a row under the name + "-copy".
 */
export const codeResource = resourceArea(
  'code',
  'blade_code',
  'CodeOutlined',
  L('代码生成', 'Code generation'),
  'code',
  'code',
  [
    text('codeName', L('模块名', 'Module'), 64, { required: true, search: 'like', example: '参数管理001' }),
    text('codeNameEn', L('英文模块名', 'Module in English'), 64, {
      required: true,
      list: false,
      example: 'Parameters',
    }),
    text('serviceName', L('服务名', 'Service'), 64, {
      required: true,
      search: 'like',
      pattern: '^dfem-[a-z][a-z0-9-]{0,58}$',
      patternMessage: L(
        '服务名以 dfem- 开头,为小写字母、数字或 -',
        'A service is dfem- then lower-case letters, digits or -',
      ),
      example: 'dfem-farm',
    }),
    text('routePrefix', L('路由前缀', 'Route prefix'), 32, {
      required: true,
      pattern: '^[a-z][a-z0-9]{0,31}$',
      patternMessage: L(
        '路由前缀为小写字母开头的小写字母或数字',
        'A route prefix is lower-case letters and digits',
      ),
      example: 'farm',
    }),
    ref('modelId', L('模型', 'Model'), 'model', DEVELOP_DEMO.modelId, { required: true }),
    dict('templateType', L('模板', 'Template'), DEVELOP_DICT.code_template, {
      required: true,
      search: 'equal',
      default: 'single',
      example: 'single',
    }),
    ref('subModelId', L('子表模型', 'Detail model'), 'model', DEVELOP_DEMO.modelId, {
      list: false,
      requiredWhen: { field: 'templateType', is: ['sub'] },
    }),
    text('subForeignKey', L('子表外键', 'Detail key'), 64, {
      list: false,
      pattern: PROPERTY_NAME,
      patternMessage: L('外键为子表模型的属性名', 'The key is a property of the detail model'),
      requiredWhen: { field: 'templateType', is: ['sub'] },
    }),
    remark(),
  ],
  { listPath: 'list', unique: ['codeName'] },
);

/**
 * A report's design (`content`, JSON): the columns of the resource it shows (its declared fields, in order),
 * the list filters it applies (the resource's own whitelisted query keys: `sex`, `age_ge`…), the field its
 * rows are grouped by, and the totals shown per group and for the whole report.
 */
export interface ReportDesign {
  columns: string[];
  filters?: Record<string, string>;
  groupBy?: string;
  totals?: { field: string; op: ReportTotalOp }[];
}
export const REPORT_TOTAL_OPS = ['count', 'sum', 'avg', 'min', 'max'] as const;
export type ReportTotalOp = (typeof REPORT_TOTAL_OPS)[number];
/** The limits of a report: columns, rows per page, rows read (past it the answer says `truncated`). */
export const REPORT_LIMITS = {
  columns: 30,
  rowsPerPage: 100,
  rows: 10_000,
  totals: 10,
  filters: 20,
} as const;
export const REPORT_ORIENTATION = { portrait: 'portrait', landscape: 'landscape' } as const;

/**
 * 报表管理 (spec §7 dfem-report `report/rest/list|remove`, the family's report files kept in
 * `blade_report_file`): a report over a resource of the product — its columns, filters, grouping, totals and
 * chart (`content`, a `ReportDesign`), printed `rowsPerPage` rows a page, A4 portrait or landscape. Its rows
 * are read through the resource's own constraint (tenant, data scope) and list filters: no SQL is written.
 */
export const reportResource: ResourceDef = {
  key: 'report',
  table: 'blade_report_file',
  label: L('报表管理', 'Reports'),
  service: 'dfem-report',
  path: 'report/rest',
  route: '/tool/report',
  icon: 'BarChartOutlined',
  permission: 'report',
  tenant: true,
  unique: ['name'],
  fields: [
    text('name', L('报表名称', 'Report name'), 100, {
      required: true,
      search: 'like',
      example: '通知报表001',
    }),
    text('resourceKey', L('数据资源', 'Resource'), 64, {
      required: true,
      search: 'equal',
      pattern: '^[a-z][A-Za-z0-9]{0,63}$',
      patternMessage: L('数据资源为资源的键', 'The resource is a resource key'),
      example: 'notice',
    }),
    {
      name: 'content',
      label: L('报表设计', 'Design'),
      type: 'json',
      required: true,
      max: 20_000,
      list: false,
      span: 24,
      example: '{"columns":["title","category"]}',
    },
    {
      name: 'rowsPerPage',
      label: L('每页行数', 'Rows per page'),
      type: 'int',
      required: true,
      min: 1,
      max: REPORT_LIMITS.rowsPerPage,
      default: 20,
      example: 10,
    },
    dict('orientation', L('纸张方向', 'Orientation'), DEVELOP_DICT.report_orientation, {
      required: true,
      default: 'portrait',
      example: 'portrait',
    }),
    dict('chartType', L('图表', 'Chart'), DEVELOP_DICT.report_chart, {
      default: 'none',
      example: 'none',
    }),
    { name: 'remark', label: L('备注', 'Remark'), type: 'textarea', max: 255, span: 24 },
  ],
};

/** 研发工具: data sources, models (with their fields' prototypes), code generation and reports. */
export const DEVELOP_AREA = defineArea({
  code: 'tool',
  label: L('研发工具', 'Developer tools'),
  icon: 'ToolOutlined',
  resources: [datasourceResource, modelResource, codeResource, reportResource],
  dicts: DEVELOP_DICTS,
  buttons: {
    datasource: [{ code: 'test', label: L('测试连接', 'Test connection') }],
    model: [{ code: 'sync', label: L('读取字段', 'Read the columns') }],
    code: [
      { code: 'preview', label: L('预览代码', 'Preview the code') },
      { code: 'gen', label: L('下载代码', 'Download the code') },
    ],
    report: [
      { code: 'preview', label: L('预览打印', 'Preview and print') },
      { code: 'export', label: L('导出', 'Export') },
    ],
  },
});
