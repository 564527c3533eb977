import { dictCodes, dictionary, numbered } from './dicts';
import { area, date, dict, money, phone, ref, refs, remark, text } from './fields';
import { yuanText } from './overview';
import {
  areaResource,
  defineArea,
  type FieldDef,
  L,
  type OverviewAnswers,
  type OverviewDecl,
  type Text2,
} from './types';

/** The poverty-relief area's dictionaries (seed step relief-v1). */
export const RELIEF_DICTS = [
  dictionary(
    'relief_monitor_kind',
    L('监测对象类别', 'Monitored household kind'),
    numbered([
      ['脱贫不稳定户', 'Unstable household out of poverty'],
      ['边缘易致贫户', 'Marginal household at risk of poverty'],
      ['突发严重困难户', 'Household in sudden severe hardship'],
    ]),
  ),
  dictionary(
    'relief_risk_kind',
    L('风险类型', 'Risk kind'),
    numbered([
      ['因病', 'Illness'],
      ['因学', 'Schooling costs'],
      ['因残', 'Disability'],
      ['因灾', 'Disaster'],
      ['因意外', 'Accident'],
      ['产业失败', 'Business failure'],
      ['务工不稳', 'Unstable work'],
      ['缺劳动力', 'Lack of labour'],
    ]),
  ),
  dictionary(
    'relief_source',
    L('发现方式', 'How a household was found'),
    numbered([
      ['农户申请', 'Household applied'],
      ['走访发现', 'Found on a visit'],
      ['部门预警', 'Department alert'],
    ]),
  ),
  dictionary(
    'relief_stage',
    L('识别状态', 'Identification stage'),
    numbered([
      ['待村级评议', 'Village review'],
      ['公示中', 'Public notice'],
      ['待乡镇认定', 'Township identification'],
      ['监测中', 'Monitored'],
      ['风险已消除', 'Risk removed'],
      ['未纳入', 'Not identified'],
    ]),
  ),
  dictionary(
    'relief_measure_kind',
    L('帮扶措施类型', 'Supporting measure kind'),
    numbered([
      ['产业帮扶', 'Industry'],
      ['就业帮扶', 'Employment'],
      ['健康帮扶', 'Health'],
      ['教育帮扶', 'Education'],
      ['住房保障', 'Housing'],
      ['饮水安全', 'Drinking water'],
      ['金融帮扶', 'Finance'],
      ['兜底保障', 'Basic living allowance'],
    ]),
  ),
  dictionary(
    'relief_measure_status',
    L('措施落实状态', 'Measure status'),
    numbered([
      ['落实中', 'In progress'],
      ['已完成', 'Completed'],
      ['已终止', 'Stopped'],
    ]),
  ),
  dictionary(
    'relief_policy_category',
    L('政策类别', 'Policy category'),
    numbered([
      ['产业', 'Industry'],
      ['就业', 'Employment'],
      ['教育', 'Education'],
      ['医疗', 'Medical care'],
      ['住房', 'Housing'],
      ['社会保障', 'Social security'],
      ['金融', 'Finance'],
    ]),
  ),
];

/** What a field names its dictionary by: `RELIEF_DICT.<code>` (a code not declared above does not compile). */
export const RELIEF_DICT = dictCodes(RELIEF_DICTS);

/**
 * Poverty relief and relocation (防返贫, 易地搬迁; spec §1 and §7 dfem-hope-manage: preventionPoverty,
 * supportingMeasures, benefitingPolicy, resettlementSite; responsible persons and the income line by the
 * same conventions). A monitored household (防止返贫动态监测对象) is identified through the workflow
 * `relief_identification`: the village reviews the application and posts a public notice of at least five
 * days, the township identifies it within fifteen days of the application (RELIEF_CLOCKS). The process
 * moves the household's stage; measures follow, and the risk is removed with a date and a reason. Public
 * notices never show full ID numbers, phones or bank accounts (`personal` fields, the notice export).
 * Domain: shared/design/domain.md "Poverty relief and relocation".
 */

const SERVICE = 'dfem-hope-manage';

/** Rows the demo seed always creates (tenant 000000): generated tests reference them as valid samples. */
export const RELIEF_DEMO = {
  villagerId: '1190000000000000001',
  householdId: '1190000000001500001',
  responsibleId: '1190000000001520001',
} as const;

/** The stages of a monitored household (relief_stage), moved by the identification process. */
export const RELIEF_STAGE = {
  villageReview: '1',
  notice: '2',
  township: '3',
  monitored: '4',
  riskRemoved: '5',
  notIdentified: '6',
} as const;

/** The stages in which the identification is still under way (the fifteen-day clock runs). */
export const RELIEF_OPEN_STAGES: readonly string[] = [
  RELIEF_STAGE.villageReview,
  RELIEF_STAGE.notice,
  RELIEF_STAGE.township,
];

/** The clocks of the identification (policy: notice ≥ 5 days; township decides within 15 days of applying). */
export const RELIEF_CLOCKS = { noticeDays: 5, identifyDays: 15 } as const;

/** The key of the identification process (flow definitions), deployed for every tenant by the seed. */
export const RELIEF_PROCESS_KEY = 'relief_identification';

const resource = areaResource(SERVICE, 'relief');

const stageClock = (name: string, label: Text2): FieldDef =>
  date(name, label, { readOnly: true, form: false, list: false });

/** 防返贫监测户: a household under monitoring, from its application to the removal of its risk. */
export const preventionPovertyResource = resource(
  'preventionPoverty',
  'hope_prevention_poverty',
  'FileSearchOutlined',
  L('防返贫监测', 'Monitored households'),
  'monitor',
  'prevention_poverty',
  [
    ref('householderId', L('户主', 'Household head'), 'villager', RELIEF_DEMO.villagerId, { required: true }),
    text('householdNo', L('户号', 'Household no.'), 20, {
      required: true,
      pattern: '[A-Za-z0-9-]+',
      patternMessage: L('户号只能包含字母、数字和-', 'Household no. may hold letters, digits and -'),
      search: 'equal',
      example: 'H0001',
    }),
    dict('monitorKind', L('监测对象类别', 'Kind'), RELIEF_DICT.relief_monitor_kind, {
      required: true,
      search: 'equal',
    }),
    {
      name: 'riskKinds',
      label: L('风险类型', 'Risks'),
      type: 'dictMulti',
      dict: RELIEF_DICT.relief_risk_kind,
      required: true,
      example: '1',
    },
    dict('source', L('发现方式', 'Found by'), RELIEF_DICT.relief_source, { required: true, list: false }),
    { name: 'familySize', label: L('家庭人口', 'Family size'), type: 'int', required: true, min: 1, max: 50 },
    phone('phone', L('联系电话', 'Phone'), { personal: true, list: false, excel: true }),
    text('bankAccount', L('银行账号', 'Bank account'), 30, {
      pattern: '\\d{12,30}',
      patternMessage: L('银行账号为12至30位数字', 'A bank account is 12 to 30 digits'),
      personal: true,
      list: false,
      excel: true,
      example: '6222021234567890123',
    }),
    date('applyDate', L('申请日期', 'Applied on'), { notAfterToday: true, required: true }),
    dict('stage', L('识别状态', 'Stage'), RELIEF_DICT.relief_stage, {
      search: 'equal',
      readOnly: true,
      form: false,
      default: RELIEF_STAGE.villageReview,
    }),
    stageClock('noticeStart', L('公示开始', 'Notice from')),
    stageClock('noticeEnd', L('公示结束', 'Notice until')),
    stageClock('identifyDate', L('认定日期', 'Identified on')),
    date('riskRemovedDate', L('风险消除日期', 'Risk removed on'), {
      readOnly: true,
      form: false,
      list: false,
    }),
    text('riskRemovedReason', L('风险消除原因', 'Why the risk was removed'), 200, {
      readOnly: true,
      form: false,
      list: false,
    }),
    text('processInstanceId', L('识别流程', 'Identification process'), 64, {
      readOnly: true,
      form: false,
      list: false,
    }),
    area('situation', L('家庭情况', 'Situation'), 1000, { personal: true, excel: true }),
    remark(),
  ],
  {
    unique: ['householdNo'],
    defaultSort: { field: 'applyDate', desc: true },
    select: { label: 'householdNo', search: ['householdNo'] },
    excel: {
      fileName: L('防返贫监测户', 'monitored households'),
      export: true,
      notice: L('防返贫监测对象公示', 'monitored households public notice'),
    },
  },
);

/** 帮扶措施: what is done for a monitored household, with its amount. */
export const supportingMeasuresResource = resource(
  'supportingMeasures',
  'hope_supporting_measure',
  'HeartOutlined',
  L('帮扶措施', 'Supporting measures'),
  'measure',
  'supporting_measures',
  [
    ref('householdId', L('监测户', 'Household'), 'preventionPoverty', RELIEF_DEMO.householdId, {
      required: true,
    }),
    dict('measureKind', L('措施类型', 'Kind'), RELIEF_DICT.relief_measure_kind, {
      required: true,
      search: 'equal',
    }),
    text('name', L('措施名称', 'Measure'), 100, { required: true, search: 'like' }),
    money('amount', L('金额(元)', 'Amount (yuan)')),
    date('startDate', L('开始日期', 'From'), { required: true }),
    date('endDate', L('结束日期', 'Until'), { notBefore: 'startDate' }),
    dict('status', L('落实状态', 'Status'), RELIEF_DICT.relief_measure_status, {
      required: true,
      search: 'equal',
    }),
    ref('responsibleId', L('责任人', 'Responsible'), 'reliefResponsible', RELIEF_DEMO.responsibleId, {
      search: undefined,
    }),
    area('content', L('措施内容', 'Content'), 1000),
  ],
  { defaultSort: { field: 'startDate', desc: true } },
);

/** 惠民政策: the policies households may benefit from. */
export const benefitingPolicyResource = resource(
  'benefitingPolicy',
  'hope_benefiting_policy',
  'GiftOutlined',
  L('惠民政策', 'Benefiting policies'),
  'policy',
  'benefiting_policy',
  [
    text('name', L('政策名称', 'Policy'), 100, { required: true, search: 'like' }),
    dict('category', L('政策类别', 'Category'), RELIEF_DICT.relief_policy_category, {
      required: true,
      search: 'equal',
    }),
    text('targetGroup', L('对象', 'Who'), 100, { required: true }),
    text('standard', L('补助标准', 'Standard'), 200),
    text('issuer', L('发文单位', 'Issued by'), 60),
    date('effectiveDate', L('施行日期', 'In force from')),
    area('content', L('政策内容', 'Content'), 4000),
  ],
  { defaultSort: { field: 'effectiveDate', desc: true } },
);

/** 易地搬迁安置点: where relocated households live. */
export const resettlementSiteResource = resource(
  'resettlementSite',
  'hope_resettlement_site',
  'HomeOutlined',
  L('搬迁安置点', 'Resettlement sites'),
  'resettlement',
  'resettlement_site',
  [
    text('name', L('安置点名称', 'Site'), 60, { required: true, search: 'like' }),
    text('address', L('地址', 'Address'), 200, { required: true }),
    {
      name: 'location',
      label: L('位置', 'Location'),
      type: 'geoPoint',
      list: false,
      example: '112.98,28.19',
    },
    { name: 'households', label: L('安置户数', 'Households'), type: 'int', min: 0, max: 100000, default: 0 },
    { name: 'persons', label: L('安置人数', 'Persons'), type: 'int', min: 0, max: 1000000, default: 0 },
    date('builtDate', L('建成日期', 'Built on'), { notAfterToday: true }),
    area('facilities', L('配套设施', 'Facilities'), 1000),
    remark(),
  ],
);

/** 帮扶责任人: who answers for which monitored households. */
export const reliefResponsibleResource = resource(
  'reliefResponsible',
  'hope_relief_responsible',
  'IdcardOutlined',
  L('帮扶责任人', 'Responsible persons'),
  'responsible',
  'relief_responsible',
  [
    text('name', L('姓名', 'Name'), 20, { required: true, search: 'like' }),
    text('unit', L('工作单位', 'Unit'), 60, { required: true }),
    text('post', L('职务', 'Post'), 30),
    phone('phone', L('联系电话', 'Phone'), { required: true }),
    refs('households', L('帮扶户', 'Households'), 'preventionPoverty', RELIEF_DEMO.householdId),
    remark(),
  ],
  { select: { label: 'name', search: ['name', 'unit'] } },
);

/** 监测收入线: the yearly per-capita income below which a household is watched, as the tenant sets it. */
export const reliefIncomeLineResource = resource(
  'reliefIncomeLine',
  'hope_relief_income_line',
  'LineChartOutlined',
  L('监测收入线', 'Income line'),
  'income-line',
  'relief_income_line',
  [
    {
      name: 'year',
      label: L('年度', 'Year'),
      type: 'int',
      required: true,
      min: 2000,
      max: 2100,
      search: 'equal',
    },
    money('line', L('人均纯收入监测线(元)', 'Per-capita income line (yuan)'), { required: true }),
    remark(),
  ],
  { unique: ['year'], defaultSort: { field: 'year', desc: true } },
);

/** 防返贫概览: the monitored households' figures (GET reliefOverview/statistics). */
export const RELIEF_OVERVIEW: OverviewDecl = {
  code: 'relief_overview',
  label: L('防返贫概览', 'Relief overview'),
  path: '/relief/overview',
  icon: 'DashboardOutlined',
  title: L('防返贫概览', 'Relief overview'),
  sources: { relief: { url: '/api/dfem-hope-manage/reliefOverview/statistics', watch: 'preventionPoverty' } },
  figures: [
    { label: L('监测户总数', 'Households'), value: (a) => relief(a)?.households },
    { label: L('监测中', 'Monitored'), value: (a) => relief(a)?.monitored },
    { label: L('识别中', 'Being identified'), value: (a) => relief(a)?.identifying },
    { label: L('识别超期', 'Identification overdue'), value: (a) => relief(a)?.overdue },
    { label: L('未落实措施', 'Without a measure'), value: (a) => relief(a)?.withoutMeasure },
    { label: L('风险已消除', 'Risk removed'), value: (a) => relief(a)?.riskRemoved },
    {
      label: L('帮扶资金(元)', 'Support funds (yuan)'),
      value: (a, lang) => yuanText(relief(a)?.measureAmount, lang),
    },
  ],
  charts: [
    { kind: 'pie', title: L('监测对象类别', 'By kind'), items: (a) => relief(a)?.byKind ?? [] },
    { kind: 'pie', title: L('识别状态', 'By stage'), items: (a) => relief(a)?.byStage ?? [] },
    { kind: 'bar', title: L('风险类型', 'By risk'), items: (a) => relief(a)?.byRisk ?? [], color: '#d48806' },
    {
      kind: 'bar',
      title: L('各类措施金额(元)', 'Amount by measure (yuan)'),
      series: L('金额', 'Amount'),
      items: (a) => relief(a)?.amountByMeasure ?? [],
      color: '#389e0d',
    },
  ],
};
const relief = (a: OverviewAnswers) => a.relief as ReliefOverview | undefined;

/** 防返贫: the menu folder and its screens, in menu order. */
export const RELIEF_AREA = defineArea({
  code: 'relief',
  label: L('防返贫', 'Poverty relief'),
  icon: 'InsuranceOutlined',
  overview: RELIEF_OVERVIEW,
  resources: [
    preventionPovertyResource,
    supportingMeasuresResource,
    reliefResponsibleResource,
    benefitingPolicyResource,
    resettlementSiteResource,
    reliefIncomeLineResource,
  ],
  buttons: {
    preventionPoverty: [
      { code: 'identify', label: L('发起识别', 'Start identification') },
      { code: 'remove_risk', label: L('消除风险', 'Remove risk') },
    ],
  },
  dicts: RELIEF_DICTS,
  home: [
    {
      key: 'monitored',
      label: L('防返贫监测户', 'Monitored households'),
      resource: 'preventionPoverty',
      order: 20,
    },
  ],
});

export interface ReliefCount {
  key: string;
  name: string;
  value: number;
}

/** Figures of the relief overview (GET reliefOverview/statistics). */
export interface ReliefOverview {
  households: number;
  monitored: number;
  identifying: number;
  overdue: number;
  withoutMeasure: number;
  riskRemoved: number;
  measureAmount: number;
  byKind: ReliefCount[];
  byStage: ReliefCount[];
  byRisk: ReliefCount[];
  amountByMeasure: ReliefCount[];
}

/**
 * The two clocks of an identification, from the application day, the notice and the day asked about:
 * the notice's days left (while it runs), the township's deadline and days left, and whether the case is
 * overdue (still open after the deadline, or identified after it).
 */
export function reliefClocks(
  row: { applyDate?: unknown; noticeEnd?: unknown; identifyDate?: unknown; stage?: unknown },
  today: string,
) {
  const day = (s: unknown) => (typeof s === 'string' && s ? Date.parse(`${s.slice(0, 10)}T00:00:00Z`) : NaN);
  const DAY = 86_400_000;
  const applied = day(row.applyDate);
  const now = day(today);
  const deadlineMs = applied + RELIEF_CLOCKS.identifyDays * DAY;
  const identifyDeadline = Number.isNaN(deadlineMs) ? null : new Date(deadlineMs).toISOString().slice(0, 10);
  const open = RELIEF_OPEN_STAGES.includes(String(row.stage ?? ''));
  const noticeEnd = day(row.noticeEnd);
  const identified = day(row.identifyDate);
  return {
    identifyDeadline,
    identifyDaysLeft: open && identifyDeadline ? Math.round((deadlineMs - now) / DAY) : null,
    noticeDaysLeft:
      String(row.stage) === RELIEF_STAGE.notice && !Number.isNaN(noticeEnd)
        ? Math.max(0, Math.round((noticeEnd - now) / DAY))
        : null,
    overdue: identifyDeadline
      ? (open && now > deadlineMs) || (!Number.isNaN(identified) && identified > deadlineMs)
      : false,
  };
}
