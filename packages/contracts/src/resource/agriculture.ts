import { dictCodes, dictionary, numbered } from './dicts';
import { area, date, dict, phone, ref, refs, remark, text } from './fields';
import { yearText, yuanText } from './overview';
import {
  deviceAlarmResource,
  deviceResource,
  pestPhotoResource,
  TELEMETRY_DICTS,
  TELEMETRY_SCREENS,
} from './telemetry';
import {
  areaResource,
  defineArea,
  type FieldDef,
  L,
  type NamedCount,
  type OverviewAnswers,
  type OverviewDecl,
  type Text2,
} from './types';

/** The smart-agriculture area's dictionaries (seed step agriculture-v1). */
export const AGRICULTURE_DICTS = [
  dictionary(
    'agri_operation',
    L('农事操作', 'Farming operation'),
    numbered([
      ['翻耕', 'Ploughing'],
      ['播种', 'Sowing'],
      ['施肥', 'Fertilising'],
      ['灌溉', 'Irrigation'],
      ['植保', 'Crop protection'],
      ['采收', 'Harvest'],
    ]),
  ),
  dictionary(
    'agri_crop',
    L('种植作物', 'Crop'),
    numbered([
      ['水稻', 'Rice'],
      ['玉米', 'Maize'],
      ['油菜', 'Rapeseed'],
      ['蔬菜', 'Vegetables'],
      ['茶叶', 'Tea'],
      ['柑橘', 'Citrus'],
      ['其他', 'Other'],
    ]),
  ),
  dictionary(
    'agri_soil_type',
    L('土壤类型', 'Soil type'),
    numbered([
      ['红壤', 'Red soil'],
      ['黄壤', 'Yellow soil'],
      ['水稻土', 'Paddy soil'],
      ['潮土', 'Fluvo-aquic soil'],
      ['紫色土', 'Purple soil'],
    ]),
  ),
  dictionary(
    'agri_owner_kind',
    L('经营主体类型', 'Plot holder kind'),
    numbered([
      ['农户', 'Household'],
      ['合作社', 'Cooperative'],
      ['村集体', 'Village collective'],
    ]),
  ),
  dictionary(
    'agri_season',
    L('季节', 'Season'),
    numbered([
      ['春季', 'Spring'],
      ['夏季', 'Summer'],
      ['秋季', 'Autumn'],
      ['冬季', 'Winter'],
    ]),
  ),
  dictionary(
    'agri_seedling_unit',
    L('种苗单位', 'Seedling unit'),
    numbered([
      ['株', 'plants'],
      ['千克', 'kg'],
      ['袋', 'bags'],
      ['盘', 'trays'],
    ]),
  ),
  dictionary(
    'agri_coop_kind',
    L('经营主体类别', 'Cooperative kind'),
    numbered([
      ['农民专业合作社', 'Farmers’ cooperative'],
      ['家庭农场', 'Family farm'],
      ['农业企业', 'Agricultural company'],
    ]),
  ),
  dictionary(
    'agri_certification',
    L('农产品认证', 'Produce certification'),
    numbered([
      ['无公害农产品', 'Pollution-free'],
      ['绿色食品', 'Green food'],
      ['有机产品', 'Organic'],
      ['地理标志', 'Geographical indication'],
    ]),
  ),
  dictionary(
    'agri_industry_category',
    L('产业类别', 'Industry category'),
    numbered([
      ['种植业', 'Crop farming'],
      ['养殖业', 'Animal husbandry'],
      ['农产品加工', 'Produce processing'],
      ['乡村旅游', 'Rural tourism'],
      ['农村电商', 'Rural e-commerce'],
    ]),
  ),
  dictionary(
    'agri_species',
    L('养殖品种', 'Species'),
    numbered([
      ['生猪', 'Pigs'],
      ['肉牛', 'Beef cattle'],
      ['山羊', 'Goats'],
      ['家禽', 'Poultry'],
      ['淡水鱼', 'Freshwater fish'],
      ['其他', 'Other'],
    ]),
  ),
  dictionary(
    'agri_stock_unit',
    L('存栏单位', 'Stock unit'),
    numbered([
      ['头', 'head'],
      ['只', 'animals'],
      ['羽', 'birds'],
      ['尾', 'fish'],
      ['千克', 'kg'],
    ]),
  ),
];

/** What a field names its dictionary by: `AGRICULTURE_DICT.<code>` (a code not declared above does not compile). */
export const AGRICULTURE_DICT = dictCodes(AGRICULTURE_DICTS);

/**
 * Smart agriculture (智慧农业, spec §1 and §7 dfem-hope-manage Agriculture): plots drawn on a map (their area
 * in 亩 computed from the polygon), planting plans with their steps, farming records that tick the steps they
 * did, seedlings, cooperatives and farms (unified social credit code), industries with their yearly output
 * values and breeding. Devices, readings and the monitoring screens are the telemetry core's (deviceManage,
 * agricultureWeather, soil, pest, slopeDetection). Domain: shared/design/domain.md "Smart agriculture".
 */

const SERVICE = 'dfem-hope-manage';

/** Rows the demo seed always creates (tenant 000000): generated tests reference them as valid samples. */
export const AGRICULTURE_DEMO = {
  villagerId: '1190000000000000001',
  plotId: '1190000000001700001',
  planId: '1190000000001710001',
  /** the demo plan's first step (翻耕, done) */
  planDetailId: '1190000000001711001',
  cooperationId: '1190000000001720001',
  industryId: '1190000000001730001',
} as const;

/** The farming operations of plan steps and records (agri_operation). */
export const AGRI_OPERATION = {
  plough: '1',
  sow: '2',
  fertilise: '3',
  irrigate: '4',
  protect: '5',
  harvest: '6',
} as const;

/** Who holds a plot (agri_owner_kind): a farming household, a cooperative, the village collective. */
export const AGRI_OWNER_KIND = { household: '1', cooperative: '2', collective: '3' } as const;

/** The area in 亩 of a plot's polygon (geo.ts: the same for every polygon field). */
export { polygonMu } from './geo';

/** A plan step is overdue when its planned day has passed and it is not done. */
export function stepOverdue(step: { plannedDate?: unknown; doneDate?: unknown }, today: string): boolean {
  const planned = typeof step.plannedDate === 'string' ? step.plannedDate.slice(0, 10) : '';
  return !step.doneDate && planned !== '' && planned < today;
}

const resource = areaResource(SERVICE, 'agriculture');

const yearField = (name = 'year', label = L('年度', 'Year'), opts: Partial<FieldDef> = {}): FieldDef => ({
  name,
  label,
  type: 'int',
  min: 2000,
  max: 2100,
  search: 'equal',
  example: 2026,
  ...opts,
});
const villagerRef = (name: string, label: Text2, opts: Partial<FieldDef> = {}): FieldDef =>
  ref(name, label, 'villager', AGRICULTURE_DEMO.villagerId, opts);
const cooperationRef = (name: string, label: Text2, opts: Partial<FieldDef> = {}): FieldDef =>
  ref(name, label, 'cooperation', AGRICULTURE_DEMO.cooperationId, opts);
const operationField = (opts: Partial<FieldDef> = {}): FieldDef =>
  dict('operation', L('农事操作', 'Operation'), AGRICULTURE_DICT.agri_operation, {
    required: true,
    search: 'equal',
    ...opts,
  });

/** 地块: a field drawn on the map; its area in 亩 follows from the polygon. */
export const plotResource = resource(
  'plot',
  'hope_plot',
  'GlobalOutlined',
  L('地块管理', 'Plots'),
  'plot',
  'smart_plot',
  [
    text('name', L('地块名称', 'Plot'), 60, { required: true, search: 'like' }),
    {
      name: 'polygon',
      label: L('地块边界', 'Boundary'),
      type: 'polygon',
      required: true,
      span: 24,
    },
    {
      name: 'area',
      label: L('面积', 'Area'),
      type: 'decimal',
      unit: L('亩', 'mu'),
      readOnly: true,
      excel: true,
    },
    dict('crop', L('种植作物', 'Crop'), AGRICULTURE_DICT.agri_crop, { search: 'equal' }),
    dict('soilType', L('土壤类型', 'Soil'), AGRICULTURE_DICT.agri_soil_type, { search: 'equal' }),
    dict('ownerKind', L('经营主体', 'Held by'), AGRICULTURE_DICT.agri_owner_kind, {
      required: true,
      search: 'equal',
    }),
    // who holds it: a household names its villager, a cooperative its cooperative (the hooks clear the other)
    villagerRef('ownerVillagerId', L('承包农户', 'Household'), {
      requiredWhen: { field: 'ownerKind', is: [AGRI_OWNER_KIND.household] },
    }),
    cooperationRef('cooperationId', L('合作社/农场', 'Co-op or farm'), {
      requiredWhen: { field: 'ownerKind', is: [AGRI_OWNER_KIND.cooperative] },
    }),
    text('deleteRemark', L('删除原因', 'Why removed'), 200, { readOnly: true, form: false, list: false }),
    remark(),
  ],
  {
    path: 'smartPlant/plot',
    unique: ['name'],
    select: { label: 'name', search: ['name'] },
  },
);

/**
 * 计划步骤: one step of a plan (翻耕, 播种 … and its planned day), ticked by the farming record that did it.
 * Written with its plan (smartPlant/plan/upsert) or on its own; no menu of its own: the plan's codes.
 */
export const planDetailResource = resource(
  'planDetail',
  'hope_plan_detail',
  'ProfileOutlined',
  L('计划步骤', 'Plan steps'),
  'plan-step',
  'smart_plan',
  [
    ref('planId', L('种植计划', 'Plan'), 'plan', AGRICULTURE_DEMO.planId, { required: true }),
    operationField(),
    text('content', L('步骤内容', 'What'), 100),
    date('plannedDate', L('计划日期', 'Planned for'), { required: true }),
    date('doneDate', L('完成日期', 'Done on'), { notAfterToday: true }),
    ref('recordId', L('农事记录', 'Record'), 'plantRecord', '', {
      readOnly: true,
      form: false,
      search: undefined,
    }),
  ],
  {
    path: 'smartPlant/planDetail',
    defaultSort: { field: 'plannedDate' },
    select: { label: 'plannedDate', search: ['content'] },
  },
);

/** 种植计划: a plot's plan for a year and season, its steps kept as rows of their own (planDetail). */
export const planResource = resource(
  'plan',
  'hope_plan',
  'ScheduleOutlined',
  L('种植计划', 'Planting plans'),
  'plan',
  'smart_plan',
  [
    text('name', L('计划名称', 'Plan'), 60, { required: true, search: 'like' }),
    ref('plotId', L('地块', 'Plot'), 'plot', AGRICULTURE_DEMO.plotId, { required: true }),
    yearField('year', L('年度', 'Year'), { required: true }),
    dict('season', L('季节', 'Season'), AGRICULTURE_DICT.agri_season, { required: true, search: 'equal' }),
    dict('crop', L('种植作物', 'Crop'), AGRICULTURE_DICT.agri_crop, { required: true, search: 'equal' }),
    remark(),
  ],
  {
    path: 'smartPlant/plan',
    defaultSort: { field: 'year', desc: true },
    select: { label: 'name', search: ['name'] },
    dialogWidth: 900,
    // its steps: rows of planDetail, sent, answered, written and removed with the plan
    children: [
      {
        name: 'steps',
        resource: planDetailResource,
        via: 'planId',
        label: L('计划步骤', 'Plan steps'),
        row: L('第{n}步', 'Step {n}'),
        add: L('添加步骤', 'Add a step'),
      },
    ],
  },
);

/** 农事记录: what was done on a plot, by whom, with what; saving it ticks the plan step it did. */
export const plantRecordResource = resource(
  'plantRecord',
  'hope_plant_record',
  'FileTextOutlined',
  L('农事记录', 'Farming records'),
  'record',
  'smart_record',
  [
    ref('plotId', L('地块', 'Plot'), 'plot', AGRICULTURE_DEMO.plotId, { required: true }),
    operationField(),
    date('workDate', L('作业日期', 'Done on'), { notAfterToday: true, required: true }),
    villagerRef('operatorId', L('操作人', 'Operator'), { required: true }),
    area('inputs', L('投入品', 'Inputs applied'), 500, { list: true }),
    { name: 'photos', label: L('现场照片', 'Photos'), type: 'image', max: 2000, list: false },
    ref('planDetailId', L('完成的计划步骤', 'Plan step done'), 'planDetail', '', {
      beside: true,
      readOnly: true,
      form: false,
      search: undefined,
    }),
    remark(),
  ],
  {
    path: 'smartPlant/record',
    defaultSort: { field: 'workDate', desc: true },
    select: { label: 'workDate', search: ['inputs'] },
  },
);

/** 种苗管理: seedlings received and what is left of them. */
export const seedlingResource = resource(
  'seedling',
  'hope_seedling',
  'SunOutlined',
  L('种苗管理', 'Seedlings'),
  'seedling',
  'seedling',
  [
    text('variety', L('品种', 'Variety'), 60, { required: true, search: 'like' }),
    text('supplier', L('供应商', 'Supplier'), 100, { search: 'like' }),
    text('lotNo', L('批次号', 'Lot'), 40, { search: 'equal' }),
    {
      name: 'quantityIn',
      label: L('入库数量', 'Received'),
      type: 'int',
      required: true,
      min: 0,
      max: 100_000_000,
    },
    {
      name: 'quantityLeft',
      label: L('结存数量', 'Remaining'),
      type: 'int',
      required: true,
      min: 0,
      max: 100_000_000,
      notAbove: {
        field: 'quantityIn',
        message: L('结存数量不能大于入库数量', 'Remaining cannot be more than received'),
      },
    },
    dict('unit', L('单位', 'Unit'), AGRICULTURE_DICT.agri_seedling_unit, { required: true }),
    date('receivedDate', L('入库日期', 'Received on'), { notAfterToday: true, required: true }),
    remark(),
  ],
  { listPath: 'list', paging: 'page', defaultSort: { field: 'receivedDate', desc: true } },
);

/** 合作社与农场: cooperatives, family farms and agricultural companies (credit code, legal person, members). */
export const cooperationResource = resource(
  'cooperation',
  'hope_cooperation',
  'TeamOutlined',
  L('合作社与农场', 'Cooperatives and farms'),
  'cooperation',
  'cooperation',
  [
    text('name', L('名称', 'Name'), 100, { required: true, search: 'like' }),
    dict('kind', L('类型', 'Kind'), AGRICULTURE_DICT.agri_coop_kind, { required: true, search: 'equal' }),
    {
      name: 'creditCode',
      label: L('统一社会信用代码', 'Unified social credit code'),
      type: 'creditCode',
      required: true,
      search: 'equal',
    },
    text('legalPerson', L('法定代表人', 'Legal representative'), 20, { required: true }),
    phone('phone', L('联系电话', 'Phone')),
    refs('memberIds', L('成员', 'Members'), 'villager', AGRICULTURE_DEMO.villagerId, { list: false }),
    text('address', L('地址', 'Address'), 200, { list: false }),
    date('establishedDate', L('成立日期', 'Established on'), { notAfterToday: true }),
    {
      name: 'certifications',
      label: L('认证', 'Certifications'),
      type: 'dictMulti',
      dict: AGRICULTURE_DICT.agri_certification,
      example: '1,2',
    },
    // certifications are counted per year (common/index/year/cer): a cooperative with some says its year
    yearField('certifiedYear', L('认证年份', 'Certified in'), {
      search: undefined,
      requiredWhen: { field: 'certifications' },
    }),
    remark(),
  ],
  {
    unique: ['creditCode'],
    select: { label: 'name', search: ['name', 'creditCode'] },
  },
);

/** 产业管理: the village's industries, their category and scale. */
export const industryResource = resource(
  'industry',
  'hope_industry',
  'ShopOutlined',
  L('产业管理', 'Industries'),
  'industry',
  'industry',
  [
    text('name', L('产业名称', 'Industry'), 60, { required: true, search: 'like' }),
    dict('category', L('产业类别', 'Category'), AGRICULTURE_DICT.agri_industry_category, {
      required: true,
      search: 'equal',
    }),
    { name: 'scale', label: L('规模', 'Scale'), type: 'decimal', min: 0, max: 100_000_000 },
    text('scaleUnit', L('规模单位', 'Scale unit'), 10, { example: '亩', unitWord: true }),
    cooperationRef('cooperationId', L('经营主体', 'Run by')),
    remark(),
  ],
  { select: { label: 'name', search: ['name'] } },
);

/** 产业产值: an industry's output value in a year (万元). */
export const industryOutputValueResource = resource(
  'industryOutputValue',
  'hope_industry_output_value',
  'FundOutlined',
  L('产业产值', 'Output values'),
  'output-value',
  'industry_output_value',
  [
    ref('industryId', L('产业', 'Industry'), 'industry', AGRICULTURE_DEMO.industryId, { required: true }),
    yearField('year', L('年度', 'Year'), { required: true }),
    {
      name: 'value',
      label: L('产值', 'Output value'),
      type: 'decimal',
      unit: L('万元', '10k yuan'),
      required: true,
      min: 0,
      max: 100_000_000,
    },
    remark(),
  ],
  {
    defaultSort: { field: 'year', desc: true },
    excel: { fileName: L('产业产值', 'industry output values'), export: true },
  },
);

/** 养殖管理: livestock and fish kept, by species, on a farm. */
export const industryBreedingResource = resource(
  'industryBreeding',
  'hope_industry_breeding',
  'GoldOutlined',
  L('养殖管理', 'Breeding'),
  'breeding',
  'industry_breeding',
  [
    dict('species', L('品种', 'Species'), AGRICULTURE_DICT.agri_species, { required: true, search: 'equal' }),
    { name: 'stock', label: L('存栏量', 'Stock'), type: 'int', required: true, min: 0, max: 100_000_000 },
    dict('unit', L('单位', 'Unit'), AGRICULTURE_DICT.agri_stock_unit, { required: true }),
    cooperationRef('farmId', L('养殖场', 'Farm'), { required: true }),
    date('recordDate', L('统计日期', 'Counted on'), { notAfterToday: true, required: true }),
    remark(),
  ],
  { defaultSort: { field: 'recordDate', desc: true } },
);

/**
 * 农业概览: certifications per year (cooperatives and farms), per-capita income per year (households), and the
 * pest lamps' catch today and over 30 days — the spec's four calls, each within the caller's reach.
 */
export const AGRICULTURE_OVERVIEW: OverviewDecl = {
  code: 'agriculture_overview',
  label: L('农业概览', 'Agriculture overview'),
  path: '/agriculture/overview',
  icon: 'DashboardOutlined',
  title: L('农业概览', 'Agriculture overview'),
  sources: {
    cer: { url: '/api/dfem-hope-manage/common/index/year/cer', watch: 'cooperation', codes: ['cooperation'] },
    income: {
      url: '/api/dfem-hope-manage/common/index/income/per',
      watch: 'villagerIncome',
      codes: ['villager_income'],
    },
    today: {
      url: '/api/dfem-hope-manage/common/index/today/harmful',
      watch: 'device',
      codes: [TELEMETRY_SCREENS.pest.code],
    },
    other: {
      url: '/api/dfem-hope-manage/common/index/other/harmful',
      watch: 'device',
      codes: [TELEMETRY_SCREENS.pest.code],
    },
  },
  figures: [
    { label: L('认证总数', 'Certifications'), value: (a) => sum(a.cer as AgriYearCount[] | undefined) },
    {
      label: L('最近人均纯收入(元)', 'Latest per-capita income (yuan)'),
      value: (a, lang) => yuanText(latestIncome(a)?.perCapita, lang),
    },
    // a year is a name, not a quantity: text, never grouped (2025, not 2,025)
    { label: L('收入年度', 'Income year'), value: (a) => yearText(latestIncome(a)?.year) },
    { label: L('今日虫口', 'Pests caught today'), value: (a) => sum(a.today as NamedCount[] | undefined) },
  ],
  charts: [
    {
      kind: 'bar',
      title: L('各年认证数', 'Certifications by year'),
      series: L('认证数', 'Certifications'),
      items: (a) =>
        ((a.cer as AgriYearCount[] | undefined) ?? []).map((r) => ({ name: String(r.year), value: r.value })),
      color: '#389e0d',
    },
    {
      kind: 'bar',
      title: L('历年人均纯收入(元)', 'Per-capita income by year (yuan)'),
      series: L('人均纯收入', 'Per-capita income'),
      items: (a) =>
        ((a.income as AgriIncomeYear[] | undefined) ?? []).map((r) => ({
          name: String(r.year),
          value: r.perCapita,
        })),
      color: '#1677ff',
    },
    {
      kind: 'pie',
      title: L('今日虫害', "Today's pests"),
      items: (a) => (a.today as NamedCount[] | undefined) ?? [],
    },
    {
      kind: 'bar',
      title: L('近 30 天虫害', 'Pests over 30 days'),
      series: L('虫口数', 'Count'),
      items: (a) => (a.other as { total: NamedCount[] } | undefined)?.total ?? [],
      color: '#fa8c16',
    },
  ],
};
const sum = (rows: readonly { value: number }[] | undefined) => rows?.reduce((n, r) => n + r.value, 0);
const latestIncome = (a: OverviewAnswers) => (a.income as AgriIncomeYear[] | undefined)?.at(-1);

/** 智慧农业: the menu folder and its screens, in menu order. */
export const AGRICULTURE_AREA = defineArea({
  code: 'agriculture',
  label: L('智慧农业', 'Smart agriculture'),
  icon: 'EnvironmentOutlined',
  overview: AGRICULTURE_OVERVIEW,
  screens: Object.values(TELEMETRY_SCREENS),
  resources: [
    plotResource,
    // the telemetry core's devices (drawn on the plot map too), their alarms and the lamps' photos; its
    // monitoring pages (weather, soil, pests, slope) are screens of their own (TELEMETRY_SCREENS)
    deviceResource,
    deviceAlarmResource,
    pestPhotoResource,
    planResource,
    plantRecordResource,
    seedlingResource,
    cooperationResource,
    industryResource,
    industryOutputValueResource,
    industryBreedingResource,
  ],
  buttons: { deviceAlarm: [{ code: 'handle', label: L('处理', 'Handle') }] },
  dicts: [...TELEMETRY_DICTS, ...AGRICULTURE_DICTS],
  home: [
    {
      key: 'openAlarms',
      label: L('未关闭的设备告警', 'Open device alarms'),
      resource: 'deviceAlarm',
      order: 30,
    },
    { key: 'offlineDevices', label: L('离线设备', 'Devices offline'), resource: 'device', order: 40 },
  ],
});

/** The coordinate system of a tile source: stored polygons are WGS-84 and are converted for GCJ-02 / BD-09 tiles. */
export type AgriMapCrs = 'wgs84' | 'gcj02' | 'bd09';

/** The map's tile source (GET smartPlant/plot/map/settings): a tenant setting kept as system parameters. */
export interface AgriMapSettings {
  /** a Leaflet URL template ({s} {z} {x} {y}, and {key}); empty: no tiles, the plots on an empty base */
  tiles: string;
  /** the tile service's key, put for {key}; 天地图 serves nothing without one */
  key: string;
  /** the tiles' coordinate system */
  crs: AgriMapCrs;
  /** the template's {s} values */
  subdomains: string;
}

/**
 * The system parameters of the map (blade_param): `<key>` for every tenant, `<key>.<tenantId>` for one
 * tenant; the defaults are 天地图's imagery (CGCS2000 ≈ WGS-84) without a key.
 */
export const AGRI_MAP_PARAMS = {
  tiles: 'agriculture.map.tiles',
  key: 'agriculture.map.key',
  crs: 'agriculture.map.crs',
  subdomains: 'agriculture.map.subdomains',
} as const;
export const AGRI_MAP_DEFAULTS: AgriMapSettings = {
  tiles:
    'https://t{s}.tianditu.gov.cn/img_w/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=img&STYLE=default&TILEMATRIXSET=w&FORMAT=tiles&TILEMATRIX={z}&TILEROW={y}&TILECOL={x}&tk={key}',
  key: '',
  crs: 'wgs84',
  subdomains: '01234567',
};

/** A year's count (GET common/index/year/cer: certifications per certified year). */
export interface AgriYearCount {
  year: number;
  value: number;
}

/** GET common/index/income/per: per-capita income by year, over the households the caller may read. */
export interface AgriIncomeYear {
  year: number;
  households: number;
  persons: number;
  /** total net income / persons, yuan, two decimals */
  perCapita: number;
}

/** A plot's history (GET smartPlant/record/plot/history): its records and plan steps in time order. */
export interface PlotHistoryItem {
  kind: 'record' | 'step';
  id: string;
  date: string;
  operation: string;
  operationName: string;
  /** record: operator's name and inputs; step: its plan's name and whether it is done or overdue */
  operatorName?: string;
  inputs?: string | null;
  planName?: string;
  content?: string | null;
  doneDate?: string | null;
  overdue?: boolean;
  recordId?: string | null;
}
