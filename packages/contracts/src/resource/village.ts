import { SYSTEM_DICT } from './dicts';
import { area, date, dict, flag, remark as note, phone, ref, refs, text } from './fields';
import { areaResource, defineArea, type FieldDef, L, type Text2 } from './types';
import { VILLAGE_DICT, VILLAGE_DICTS } from './village-dicts';

export { VILLAGE_DICT, VILLAGE_DICTS } from './village-dicts';

/**
 * Village affairs (村务, spec §1 and §7 dfem-hope-manage): villagers and their relations, cadres, duties,
 * tasks and assessments, scores and rankings, policy-to-people, vehicles, filing records, village rules,
 * reviews, duplex charges, incomes, visits and reception, the overview.
 * Fields are what a village committee keeps (shared/design/domain.md); each definition is read by the
 * server (routes, rules, Excel) and the web (list page, dialogs, pickers).
 */

const SERVICE = 'dfem-hope-manage';

/** Rows the demo seed always creates (tenant 000000): generated tests reference them as valid samples. */
export const VILLAGE_DEMO = {
  villagerId: '1190000000000000001',
  scoreRuleId: '1190000000000900001',
} as const;

const sampleImage = '/api/dfem-hope-manage/file/image/00000000-0000-4000-8000-000000000000.jpg';

const resource = areaResource(SERVICE, 'village');

/** A reference to a villager, picked with the searchable selector; lists answer `<name less Id>Name`. */
const villagerRef = (name: string, label: Text2, opts: Partial<FieldDef> = {}): FieldDef =>
  ref(name, label, 'villager', VILLAGE_DEMO.villagerId, { required: true, ...opts });
const villagerRefs = (name: string, label: Text2, opts: Partial<FieldDef> = {}): FieldDef =>
  refs(name, label, 'villager', VILLAGE_DEMO.villagerId, opts);
/** Village remarks travel with the Excel files. */
const remark = (): FieldDef => note({ excel: true });
/** an amount in 元: shown as every amount is (grouped, two decimals) */
const money = (name: string, label: Text2, opts: Partial<FieldDef> = {}): FieldDef => ({
  name,
  label,
  type: 'money',
  min: 0,
  max: 100_000_000,
  ...opts,
});

/** 村民: the roster every other village record points at. */
export const villagerResource = resource(
  'villager',
  'hope_villager',
  'TeamOutlined',
  L('村民信息', 'Villagers'),
  'villager',
  'villager',
  [
    text('name', L('姓名', 'Name'), 20, { required: true, search: 'like' }),
    dict('sex', L('性别', 'Sex'), SYSTEM_DICT.sex, { required: true, search: 'equal' }),
    dict('ethnicity', L('民族', 'Ethnicity'), VILLAGE_DICT.ethnicity, {
      default: '1',
      list: false,
      excel: true,
    }),
    {
      name: 'idCard',
      label: L('身份证号', 'ID number'),
      type: 'idcard',
      max: 18,
      pattern: '\\d{17}[\\dXx]',
      search: 'equal',
      agrees: { birthDate: 'birthDate', sex: 'sex' },
    },
    phone('phone'),
    date('birthDate', L('出生日期', 'Birth date'), { notAfterToday: true }),
    text('householdNo', L('户号', 'Household no.'), 20, {
      required: true,
      pattern: '[A-Za-z0-9-]+',
      patternMessage: L('户号只能包含字母、数字和-', 'Household no. may hold letters, digits and -'),
      search: 'equal',
      example: 'H0001',
    }),
    dict('relation', L('与户主关系', 'Relation to head'), VILLAGE_DICT.household_relation, {
      required: true,
    }),
    dict('villageGroup', L('村民小组', 'Village group'), VILLAGE_DICT.village_group, {
      required: true,
      search: 'equal',
    }),
    text('address', L('住址', 'Address'), 200, { span: 24, list: false, excel: true }),
    dict('politicalStatus', L('政治面貌', 'Political status'), VILLAGE_DICT.political_status, {
      search: 'equal',
    }),
    dict('education', L('文化程度', 'Education'), VILLAGE_DICT.education, { list: false, excel: true }),
    dict('maritalStatus', L('婚姻状况', 'Marital status'), VILLAGE_DICT.marital_status, {
      list: false,
      excel: true,
    }),
    dict('labourStatus', L('劳动力状况', 'Labour status'), VILLAGE_DICT.labour_status, {
      list: false,
      excel: true,
    }),
    flag('povertyAlleviated', L('脱贫户', 'Poverty alleviated'), { search: 'equal' }),
    flag('lowIncome', L('低保户', 'Low-income (dibao)'), { search: 'equal' }),
    flag('disabled', L('残疾', 'Disabled'), { list: false, excel: true }),
    flag('veteran', L('退役军人', 'Veteran'), { list: false, excel: true }),
    flag('livingAlone', L('独居老人', 'Elderly living alone'), { list: false, excel: true }),
    {
      name: 'photo',
      label: L('照片', 'Photo'),
      type: 'image',
      max: 500,
      list: false,
      excel: false,
      example: sampleImage,
    },
    remark(),
  ],
  {
    unique: ['idCard'],
    excel: { fileName: L('村民信息', 'villagers'), import: true, export: true, key: 'idCard' },
    select: { label: 'name', search: ['name', 'idCard', 'phone'], hint: 'idCard' },
  },
);

/** 村干部 (villagerToCadre): position and term. */
export const villagerToCadreResource = resource(
  'villagerToCadre',
  'hope_villager_cadre',
  'IdcardOutlined',
  L('村干部', 'Cadres'),
  'cadre',
  'villager_to_cadre',
  [
    villagerRef('villagerId', L('干部', 'Cadre')),
    dict('position', L('职务', 'Position'), VILLAGE_DICT.cadre_position, { required: true, search: 'equal' }),
    date('termStart', L('任期开始', 'Term start'), { required: true }),
    date('termEnd', L('任期结束', 'Term end'), { notBefore: 'termStart' }),
    flag('inOffice', L('在任', 'In office'), { default: 1, search: 'equal' }),
    text('duty', L('分管工作', 'Responsibilities'), 100, { span: 24 }),
    phone('phone', L('办公电话', 'Office phone')),
    remark(),
  ],
);

/** 组织成员 (villagerToOrg): 村委会, 党支部, 合作社, 群团. */
export const villagerToOrgResource = resource(
  'villagerToOrg',
  'hope_villager_org',
  'ApartmentOutlined',
  L('组织成员', 'Organisation members'),
  'org',
  'villager_to_org',
  [
    villagerRef('villagerId', L('成员', 'Member')),
    dict('orgKind', L('组织类型', 'Organisation kind'), VILLAGE_DICT.org_kind, {
      required: true,
      search: 'equal',
    }),
    text('orgName', L('组织名称', 'Organisation'), 60, { required: true, search: 'like' }),
    text('post', L('职务', 'Post'), 30),
    date('joinDate', L('加入日期', 'Joined on'), { notAfterToday: true }),
    remark(),
  ],
  // a villager is a member of an organisation once
  { unique: [['villagerId', 'orgName']] },
);

/** 网格成员 (villagerToGroup). */
export const villagerToGroupResource = resource(
  'villagerToGroup',
  'hope_villager_grid',
  'ClusterOutlined',
  L('网格成员', 'Grid members'),
  'grid',
  'villager_to_group',
  [
    villagerRef('villagerId', L('成员', 'Member')),
    text('gridName', L('网格名称', 'Grid'), 40, { required: true, search: 'like' }),
    dict('gridRole', L('网格角色', 'Role in grid'), VILLAGE_DICT.grid_role, {
      required: true,
      search: 'equal',
    }),
    text('gridArea', L('负责片区', 'Area covered'), 100),
    remark(),
  ],
  // a villager is in a grid once
  { unique: [['villagerId', 'gridName']] },
);

/** 值班 (villageAffairsDuty). */
export const villageAffairsDutyResource = resource(
  'villageAffairsDuty',
  'hope_village_duty',
  'ScheduleOutlined',
  L('村务值班', 'Duty roster'),
  'duty',
  'village_affairs_duty',
  [
    date('dutyDate', L('值班日期', 'Date'), { required: true }),
    dict('shift', L('班次', 'Shift'), VILLAGE_DICT.duty_shift, { required: true, search: 'equal' }),
    villagerRef('cadreId', L('值班人', 'On duty')),
    phone('phone', L('值班电话', 'Duty phone')),
    text('location', L('值班地点', 'Place'), 60),
    area('content', L('值班记录', 'Log'), 1000, { list: true }),
    remark(),
  ],
  { defaultSort: { field: 'dutyDate', desc: true } },
);

/** The keys of 考核等次 (`assessment_grade`). */
export const ASSESSMENT_GRADE = { excellent: '1', competent: '2', basic: '3', incompetent: '4' } as const;

/**
 * 考核等次 from 考核得分, the one rule (the server writes it with every score; the seed uses it too):
 * 90 and above 优秀, 75 and above 称职, 60 and above 基本称职, below 60 不称职; no score, no grade.
 */
export function gradeOfScore(score: unknown): string | null {
  if (score === null || score === undefined || score === '') return null;
  const n = Number(score);
  if (!Number.isFinite(n)) return null;
  if (n >= 90) return ASSESSMENT_GRADE.excellent;
  if (n >= 75) return ASSESSMENT_GRADE.competent;
  if (n >= 60) return ASSESSMENT_GRADE.basic;
  return ASSESSMENT_GRADE.incompetent;
}

/** 任务与考核 (evaluationTask): a task given to a cadre, its progress, and the assessment of it. */
export const evaluationTaskResource = resource(
  'evaluationTask',
  'hope_evaluation_task',
  'AuditOutlined',
  L('任务考核', 'Tasks and assessments'),
  'task',
  'evaluation_task',
  [
    text('title', L('任务名称', 'Task'), 100, { required: true, search: 'like' }),
    villagerRef('assigneeId', L('责任人', 'Assignee')),
    text('period', L('考核周期', 'Period'), 30, { example: '2026年第一季度' }),
    date('deadline', L('截止日期', 'Deadline')),
    {
      name: 'progress',
      label: L('进度(%)', 'Progress (%)'),
      type: 'int',
      min: 0,
      max: 100,
      default: 0,
      percent: true,
    },
    dict('taskStatus', L('任务状态', 'Status'), VILLAGE_DICT.task_status, {
      required: true,
      search: 'equal',
    }),
    {
      name: 'score',
      label: L('考核得分', 'Score'),
      type: 'decimal',
      min: 0,
      max: 100,
      example: 92.5,
    },
    // never typed: it follows from the score (gradeOfScore), so the two cannot disagree
    dict('grade', L('考核等次', 'Grade'), VILLAGE_DICT.assessment_grade, { search: 'equal', readOnly: true }),
    area('content', L('任务内容', 'Content')),
    remark(),
  ],
);

/** 积分规则 (scoreRankRule): a rule awards (+) or deducts (−) points. */
export const scoreRankRuleResource = resource(
  'scoreRankRule',
  'hope_score_rule',
  'StarOutlined',
  L('积分规则', 'Score rules'),
  'score-rule',
  'score_rank_rule',
  [
    dict('category', L('规则类别', 'Category'), VILLAGE_DICT.score_category, {
      required: true,
      search: 'equal',
    }),
    text('ruleName', L('规则名称', 'Rule'), 60, { required: true, search: 'like' }),
    {
      name: 'points',
      label: L('分值(加分为正,扣分为负)', 'Points (+ award, − deduct)'),
      type: 'int',
      required: true,
      min: -1000,
      max: 1000,
      example: 5,
    },
    flag('enabled', L('启用', 'Enabled'), { default: 1, search: 'equal' }),
    { name: 'sort', label: L('排序', 'Sort'), type: 'int', min: 0, max: 10000, default: 0, list: false },
    area('description', L('规则说明', 'Description'), 500),
  ],
  { defaultSort: { field: 'sort' }, select: { label: 'ruleName', search: ['ruleName'] } },
);

/** 积分记录 (scoreRank): points a villager's household earned by a rule; the ranking adds them up. */
export const scoreRankResource = resource(
  'scoreRank',
  'hope_score_record',
  'TrophyOutlined',
  L('积分管理', 'Scores'),
  'score',
  'score_rank',
  [
    villagerRef('villagerId', L('村民', 'Villager')),
    {
      name: 'ruleId',
      label: L('积分规则', 'Rule'),
      type: 'ref',
      ref: 'scoreRankRule',
      required: true,
      search: 'equal',
      example: VILLAGE_DEMO.scoreRuleId,
    },
    {
      name: 'points',
      label: L('积分', 'Points'),
      type: 'int',
      readOnly: true,
      default: 0,
      sortable: true,
    },
    date('recordDate', L('记录日期', 'Date'), { notAfterToday: true, required: true }),
    text('approver', L('审核人', 'Approved by'), 20),
    {
      name: 'evidence',
      label: L('佐证照片', 'Evidence'),
      type: 'image',
      max: 2000,
      list: false,
      excel: false,
      example: sampleImage,
    },
    remark(),
  ],
  { defaultSort: { field: 'recordDate', desc: true } },
);

/** 政策到人 (policyToPeople). */
export const policyToPeopleResource = resource(
  'policyToPeople',
  'hope_policy_people',
  'GiftOutlined',
  L('政策到人', 'Policy to people'),
  'policy',
  'policy_to_people',
  [
    text('policyName', L('政策名称', 'Policy'), 100, { required: true, search: 'like' }),
    villagerRef('villagerId', L('享受人', 'Beneficiary')),
    text('benefit', L('享受内容', 'Benefit'), 100, { required: true }),
    money('amount', L('金额(元)', 'Amount (yuan)')),
    date('grantDate', L('发放日期', 'Granted on'), { notAfterToday: true }),
    dict('grantStatus', L('发放状态', 'Status'), VILLAGE_DICT.grant_status, {
      required: true,
      search: 'equal',
    }),
    remark(),
  ],
);

const PLATE =
  '[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-HJ-NP-Z](?:[A-HJ-NP-Z0-9]{5}|[DF][A-HJ-NP-Z0-9]{5}|[A-HJ-NP-Z0-9]{5}[DF]|[A-HJ-NP-Z0-9]{4}[挂学])';

/** 车辆 (vehicle). */
export const vehicleResource = resource(
  'vehicle',
  'hope_vehicle',
  'CarOutlined',
  L('车辆管理', 'Vehicles'),
  'vehicle',
  'vehicle',
  [
    text('plateNo', L('车牌号码', 'Plate'), 10, {
      required: true,
      pattern: PLATE,
      patternMessage: L('车牌号码格式不正确', 'The plate number has an incorrect format'),
      search: 'like',
      example: '湘A12345',
    }),
    dict('vehicleType', L('车辆类型', 'Type'), VILLAGE_DICT.vehicle_type, {
      required: true,
      search: 'equal',
    }),
    villagerRef('ownerId', L('车主', 'Owner')),
    text('brand', L('品牌型号', 'Make and model'), 40),
    text('color', L('颜色', 'Colour'), 10),
    dict('usage', L('使用性质', 'Use'), VILLAGE_DICT.vehicle_usage, { required: true }),
    date('registerDate', L('登记日期', 'Registered on'), { notAfterToday: true }),
    remark(),
  ],
  { unique: ['plateNo'] },
);

/** 备案 (filingRecords): family banquets (红白事) filed with the committee. */
export const filingRecordsResource = resource(
  'filingRecords',
  'hope_filing_record',
  'FileTextOutlined',
  L('红白事备案', 'Filing records'),
  'filing',
  'filing_records',
  [
    villagerRef('applicantId', L('申请人', 'Applicant')),
    dict('kind', L('事项类别', 'Kind'), VILLAGE_DICT.filing_kind, { required: true, search: 'equal' }),
    date('eventDate', L('举办日期', 'Date'), { required: true }),
    text('place', L('举办地点', 'Place'), 100),
    { name: 'tables', label: L('桌数', 'Tables'), type: 'int', min: 0, max: 1000 },
    { name: 'guests', label: L('人数', 'Guests'), type: 'int', min: 0, max: 10000 },
    dict('filingStatus', L('备案状态', 'Status'), VILLAGE_DICT.filing_status, {
      required: true,
      search: 'equal',
    }),
    area('content', L('简办承诺', 'Commitments')),
    remark(),
  ],
  {
    defaultSort: { field: 'eventDate', desc: true },
    excel: { fileName: L('红白事备案', 'filing-records'), import: true, export: true },
  },
);

/** 村规民约 (villageRule). */
export const villageRuleResource = resource(
  'villageRule',
  'hope_village_rule',
  'BookOutlined',
  L('村规民约', 'Village rules'),
  'rule',
  'village_rule',
  [
    text('title', L('标题', 'Title'), 100, { required: true, search: 'like', span: 24 }),
    date('effectiveDate', L('施行日期', 'In force from'), { required: true }),
    flag('published', L('已公布', 'Published'), { default: 1, search: 'equal' }),
    area('content', L('正文', 'Text'), 20000, { required: true }),
  ],
  { defaultSort: { field: 'effectiveDate', desc: true } },
);

/** 评议 (villageReview). */
export const villageReviewResource = resource(
  'villageReview',
  'hope_village_review',
  'SolutionOutlined',
  L('民主评议', 'Reviews'),
  'review',
  'village_review',
  [
    text('subject', L('评议事项', 'Subject'), 100, { required: true, search: 'like' }),
    dict('reviewKind', L('评议类型', 'Kind'), VILLAGE_DICT.review_kind, { required: true, search: 'equal' }),
    text('period', L('评议期间', 'Period'), 30, { required: true, example: '2026年度' }),
    date('reviewDate', L('评议日期', 'Date'), { notAfterToday: true }),
    { name: 'participants', label: L('参评人数', 'Participants'), type: 'int', min: 0, max: 100000 },
    dict('result', L('评议结果', 'Result'), VILLAGE_DICT.review_result, { search: 'equal' }),
    area('content', L('评议意见', 'Opinions')),
  ],
);

/** 双联户 (duplexCharge): the leader household and the households it answers for. */
export const duplexChargeResource = resource(
  'duplexCharge',
  'hope_duplex_charge',
  'HomeOutlined',
  L('双联户', 'Duplex households'),
  'duplex',
  'duplex_charge',
  [
    villagerRef('leaderId', L('联户长', 'Leader household')),
    villagerRefs('memberIds', L('联系户', 'Households answered for')),
    text('gridName', L('所属网格', 'Grid'), 40, { search: 'like' }),
    phone('phone', L('联系电话', 'Phone')),
    remark(),
  ],
);

/** 村民收入 (villagerIncome): a household's income of one year by kind; totals are computed. */
export const villagerIncomeResource = resource(
  'villagerIncome',
  'hope_villager_income',
  'FundOutlined',
  L('村民收入', 'Household incomes'),
  'income',
  'villager_income',
  [
    villagerRef('villagerId', L('户主', 'Household head')),
    {
      name: 'year',
      label: L('年度', 'Year'),
      type: 'int',
      required: true,
      min: 2000,
      max: 2100,
      search: 'equal',
    },
    { name: 'familySize', label: L('家庭人口', 'Family size'), type: 'int', required: true, min: 1, max: 50 },
    money('wageIncome', L('工资性收入(元)', 'Wages (yuan)')),
    money('businessIncome', L('经营性收入(元)', 'Business (yuan)')),
    money('propertyIncome', L('财产性收入(元)', 'Property (yuan)')),
    money('transferIncome', L('转移性收入(元)', 'Transfers (yuan)')),
    {
      name: 'totalIncome',
      label: L('家庭纯收入(元)', 'Total (yuan)'),
      type: 'money',
      readOnly: true,
      excel: true,
    },
    {
      name: 'perCapita',
      label: L('人均纯收入(元)', 'Per capita (yuan)'),
      type: 'money',
      readOnly: true,
      excel: true,
    },
    remark(),
  ],
  {
    defaultSort: { field: 'year', desc: true },
    excel: {
      fileName: L('村民收入', 'household-incomes'),
      import: true,
      export: true,
      key: ['villagerId', 'year'],
    },
  },
);

/** 走访 (visitingRecords): a cadre's visit to a household. */
export const visitingRecordsResource = resource(
  'visitingRecords',
  'hope_visiting_record',
  'EnvironmentOutlined',
  L('走访记录', 'Visits'),
  'visit',
  'visiting_records',
  [
    villagerRef('visitorId', L('走访干部', 'Visitor')),
    villagerRef('villagerId', L('走访对象', 'Household visited')),
    date('visitDate', L('走访日期', 'Date'), { notAfterToday: true, required: true }),
    dict('visitKind', L('走访类型', 'Kind'), VILLAGE_DICT.visit_kind, { required: true, search: 'equal' }),
    area('content', L('走访内容', 'Content'), 1000, { required: true, list: true }),
    area('followUp', L('跟进事项', 'Follow-up'), 500, { excel: true }),
    dict('followStatus', L('办理状态', 'Follow-up status'), VILLAGE_DICT.follow_status, {
      required: true,
      search: 'equal',
    }),
    {
      name: 'photos',
      label: L('走访照片', 'Photos'),
      type: 'image',
      max: 2000,
      list: false,
      excel: false,
      example: sampleImage,
    },
  ],
  {
    defaultSort: { field: 'visitDate', desc: true },
    excel: { fileName: L('走访记录', 'visits'), import: true, export: true },
  },
);

/** 接待 (visitingReception, 信访): who came, about what, who handled it, with what result. */
export const visitingReceptionResource = resource(
  'visitingReception',
  'hope_visiting_reception',
  'MessageOutlined',
  L('来访接待', 'Reception'),
  'reception',
  'visiting_reception',
  [
    text('visitorName', L('来访人', 'Visitor'), 20, { required: true, search: 'like' }),
    phone('visitorPhone', L('联系电话', 'Phone')),
    {
      name: 'visitorIdCard',
      label: L('身份证号', 'ID number'),
      type: 'idcard',
      max: 18,
      pattern: '\\d{17}[\\dXx]',
      list: false,
      excel: true,
    },
    date('receptionDate', L('接待日期', 'Date'), { notAfterToday: true, required: true }),
    dict('matterKind', L('事项类别', 'Kind'), VILLAGE_DICT.petition_kind, {
      required: true,
      search: 'equal',
    }),
    area('matter', L('来访事项', 'Matter'), 1000, { required: true, list: true }),
    villagerRef('handlerId', L('接待干部', 'Handled by')),
    area('result', L('处理结果', 'Result'), 1000, { excel: true }),
    dict('resultStatus', L('办理状态', 'Status'), VILLAGE_DICT.reception_status, {
      required: true,
      search: 'equal',
    }),
  ],
  {
    defaultSort: { field: 'receptionDate', desc: true },
    excel: { fileName: L('来访接待', 'reception'), import: true, export: true },
  },
);

/** 村情概况 (villageAffairsOverview): indicators kept by hand, shown with the figures computed from the data. */
export const villageAffairsOverviewResource = resource(
  'villageAffairsOverview',
  'hope_village_overview',
  'DashboardOutlined',
  L('村务概览', 'Village overview'),
  'overview',
  'village_affairs_overview',
  [
    text('itemName', L('指标名称', 'Indicator'), 30, { required: true, search: 'like' }),
    text('itemValue', L('指标值', 'Value'), 30, { required: true }),
    text('unit', L('单位', 'Unit'), 10, { unitWord: true }),
    { name: 'sort', label: L('排序', 'Sort'), type: 'int', min: 0, max: 10000, default: 0 },
    remark(),
  ],
  { defaultSort: { field: 'sort' } },
);

/** 村务管理: the menu folder and its screens, in menu order. */
export const VILLAGE_AREA = defineArea({
  code: 'village',
  label: L('村务管理', 'Village affairs'),
  icon: 'HomeOutlined',
  resources: [
    villageAffairsOverviewResource,
    villagerResource,
    villagerToCadreResource,
    villagerToOrgResource,
    villagerToGroupResource,
    villageAffairsDutyResource,
    evaluationTaskResource,
    scoreRankResource,
    scoreRankRuleResource,
    policyToPeopleResource,
    vehicleResource,
    filingRecordsResource,
    villageRuleResource,
    villageReviewResource,
    duplexChargeResource,
    villagerIncomeResource,
    visitingRecordsResource,
    visitingReceptionResource,
  ],
  dicts: VILLAGE_DICTS,
  home: [{ key: 'villagers', label: L('人口总数', 'Population'), resource: 'villager', order: 10 }],
});
