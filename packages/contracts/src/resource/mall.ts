import { dictCodes, dictionary, numbered } from './dicts';
import { area, date, dict as dictField, flag, ref, text } from './fields';
import {
  areaResource,
  type DictCode,
  defineArea,
  type FieldDef,
  L,
  type OverviewAnswers,
  type OverviewDecl,
  type Text2,
} from './types';
import { VILLAGE_DEMO } from './village';
import { VILLAGE_DICT } from './village-dicts';

/**
 * 积分超市 (spec §1 "points-and-goods mall", §4 the points rule's switch, §7 dfem-hope-manage points/*,
 * exchangeList, villager/wx/points). Villagers earn points for good deeds, completed tasks and village
 * scores, cadres grant or deduct them, and the points buy goods at the village store.
 *
 * One append-only ledger (`pointsRecord`) holds every change of every account (`pointsAccount`: a villager's
 * or a household's, by the tenant's setting): a row is never edited, a correction is a reversing row, a
 * business event is credited once (its type and id are a unique key), and the balance never goes below
 * zero. The village's 积分管理 records are credits of the same ledger (`eventType` 村务积分), so its ranking
 * and the mall's balances cannot disagree. Domain: shared/design/domain.md "Tourism, points mall, carousel".
 */

export const MALL_DICTS = [
  dictionary(
    'points_event',
    L('积分事项', 'Points event'),
    numbered([
      ['好人好事', 'Good deed'],
      ['任务完成', 'Task completed'],
      ['评比结果', 'Evaluation result'],
      ['人工调整', 'Manual adjustment'],
      ['批量导入', 'Batch import'],
      ['村务积分', 'Village score'],
      ['商品兑换', 'Exchange'],
      ['兑换退回', 'Exchange refund'],
      ['积分过期', 'Expiry'],
      ['冲正', 'Reversal'],
    ]),
  ),
  dictionary(
    'points_deed_status',
    L('积分审核状态', 'Deed review status'),
    numbered([
      ['待审核', 'Awaiting review'],
      ['已通过', 'Approved'],
      ['已驳回', 'Rejected'],
    ]),
  ),
  dictionary(
    'points_exchange_status',
    L('兑换状态', 'Exchange status'),
    numbered([
      ['待领取', 'To collect'],
      ['已领取', 'Collected'],
      ['已取消', 'Cancelled'],
    ]),
  ),
  dictionary(
    'points_goods_category',
    L('商品类别', 'Goods category'),
    numbered([
      ['日用百货', 'Household goods'],
      ['粮油副食', 'Groceries'],
      ['农资用品', 'Farm supplies'],
      ['文体用品', 'Stationery and sports'],
      ['服务券', 'Service vouchers'],
    ]),
  ),
  dictionary('points_account_kind', L('积分账户类型', 'Points account kind'), [
    { key: 'villager', zh: '按村民', en: 'Per villager' },
    { key: 'household', zh: '按户', en: 'Per household' },
  ]),
];

/** What a field names its dictionary by: `MALL_DICT.<code>`. */
export const MALL_DICT = dictCodes(MALL_DICTS);

/** The ledger's event types (points_event keys). */
export const POINTS_EVENT = {
  deed: '1',
  task: '2',
  evaluation: '3',
  manual: '4',
  import: '5',
  village: '6',
  exchange: '7',
  refund: '8',
  expiry: '9',
  reversal: '10',
} as const;

/** Events a rule may award or deduct points for (the rest are the ledger's own movements). */
export const RULE_EVENTS: readonly string[] = [
  POINTS_EVENT.deed,
  POINTS_EVENT.task,
  POINTS_EVENT.evaluation,
  POINTS_EVENT.manual,
  POINTS_EVENT.import,
];

export const DEED_STATUS = { pending: '1', approved: '2', rejected: '3' } as const;
export const EXCHANGE_STATUS = { toCollect: '1', collected: '2', cancelled: '3' } as const;

/**
 * The tenant's settings, as system parameters (参数管理; `<key>.<tenantId>` before `<key>`):
 * accounts per villager or per household, and when points expire — `none`, `yearEnd` (the 31 December of
 * the year they were earned) or `months:N` (N months after).
 */
export const POINTS_PARAM = { accountKind: 'points.accountKind', expiry: 'points.expiry' } as const;
export type PointsExpiry = { kind: 'none' } | { kind: 'yearEnd' } | { kind: 'months'; months: number };

export function parsePointsExpiry(text: string | undefined): PointsExpiry {
  const t = (text ?? '').trim();
  if (t === 'yearEnd') return { kind: 'yearEnd' };
  const m = /^months:(\d{1,3})$/.exec(t);
  if (m && Number(m[1]) >= 1) return { kind: 'months', months: Number(m[1]) };
  return { kind: 'none' };
}

/** The last day points earned on `earned` (YYYY-MM-DD) may be spent; null when they never expire. */
export function pointsExpireOn(earned: string, expiry: PointsExpiry): string | null {
  if (expiry.kind === 'none') return null;
  const [y, mo, d] = earned.split('-').map(Number);
  if (expiry.kind === 'yearEnd') return `${y}-12-31`;
  // N months after, the day before the same day of month (earned 15 March, 12 months: spendable to 14 March)
  const end = new Date(Date.UTC(y, mo - 1 + expiry.months, d - 1));
  return end.toISOString().slice(0, 10);
}

/** Rows the demo seed creates (tenant 000000): generated tests name them as valid samples. */
export const MALL_DEMO = {
  /** a cadre's reward: 5 points, no cap (what samples credit by) */
  ruleId: '1190000000002100001',
  /** 好人好事: 10 points, needs review, at most 20 a day */
  deedRuleId: '1190000000002100002',
  goodsId: '1190000000002200001',
  accountId: '1190000000002300001',
} as const;

/** A sample image path the demo ships (the village's). */
const sampleImage = '/api/dfem-hope-manage/file/image/00000000-0000-4000-8000-000000000000.jpg';

const SERVICE = 'dfem-hope-manage';
const resource = areaResource(SERVICE, 'mall');

/** every dictionary of this area is a filter of its list */
const dict = (name: string, label: Text2, code: DictCode, opts: Partial<FieldDef> = {}): FieldDef =>
  dictField(name, label, code, { search: 'equal', ...opts });
const villagerRef = (name: string, label: Text2, opts: Partial<FieldDef> = {}): FieldDef =>
  ref(name, label, 'villager', VILLAGE_DEMO.villagerId, opts);
const points = (name: string, label: Text2, opts: Partial<FieldDef> = {}): FieldDef => ({
  name,
  label,
  type: 'int',
  unit: L('分', 'pts'),
  ...opts,
});

/** 积分规则: what an event is worth, capped per account a day and a month, switched on and off. */
export const pointsRuleResource = resource(
  'pointsRule',
  'hope_points_rule',
  'StarOutlined',
  L('积分规则', 'Points rules'),
  'rule',
  'points_rule',
  [
    text('ruleName', L('规则名称', 'Rule'), 60, { required: true, search: 'like' }),
    dict('eventType', L('积分事项', 'Event'), MALL_DICT.points_event, { required: true }),
    points('points', L('分值(加分为正,扣分为负)', 'Points (+ award, − deduct)'), {
      required: true,
      min: -1000,
      max: 1000,
      example: 5,
    }),
    points('dailyCap', L('每日上限', 'Daily cap'), { min: 0, max: 100000, default: 0, example: 20 }),
    points('monthlyCap', L('每月上限', 'Monthly cap'), { min: 0, max: 1000000, default: 0, example: 100 }),
    flag('needReview', L('需要审核', 'Needs review'), { default: 1 }),
    flag('enabled', L('启用', 'Enabled'), { default: 1, search: 'equal' }),
    {
      name: 'effective',
      label: L('有效期', 'Effective'),
      type: 'dateRange',
      example: '2026-01-01,2026-12-31',
    },
    area('description', L('规则说明', 'Description'), 500),
  ],
  {
    path: 'points/rule',
    select: { label: 'ruleName', search: ['ruleName'] },
    defaultSort: { field: 'eventType' },
  },
);

/** 积分商品: what the points buy; stock never goes below zero, a person may be limited. */
export const pointsGoodsResource = resource(
  'pointsGoods',
  'hope_points_goods',
  'GiftOutlined',
  L('积分商品', 'Goods'),
  'goods',
  'points_goods',
  [
    text('goodsName', L('商品名称', 'Goods'), 60, { required: true, search: 'like' }),
    dict('category', L('商品类别', 'Category'), MALL_DICT.points_goods_category, { required: true }),
    {
      name: 'images',
      label: L('商品图片', 'Images'),
      type: 'image',
      max: 2000,
      list: false,
      excel: false,
      example: sampleImage,
    },
    points('pointsPrice', L('兑换积分', 'Price'), { required: true, min: 1, max: 1000000, example: 60 }),
    {
      name: 'stock',
      label: L('库存', 'Stock'),
      type: 'int',
      required: true,
      min: 0,
      max: 1000000,
      unit: L('件', 'pcs'),
      example: 10,
      sortable: true,
    },
    {
      name: 'perPersonLimit',
      label: L('每人限兑(0 不限)', 'Limit per person (0: none)'),
      type: 'int',
      min: 0,
      max: 1000,
      default: 0,
      unit: L('件', 'pcs'),
    },
    flag('onShelf', L('上架', 'On shelf'), { default: 1, search: 'equal' }),
    { name: 'sort', label: L('排序', 'Sort'), type: 'int', min: 0, max: 10000, default: 0, list: false },
    area('description', L('商品说明', 'Description'), 500),
  ],
  {
    path: 'points/goods',
    paging: 'currentPage',
    select: { label: 'goodsName', search: ['goodsName'] },
    defaultSort: { field: 'sort' },
  },
);

/** 积分排名: the accounts, each a villager's or a household's balance; the server alone writes them. */
export const pointsAccountResource = resource(
  'pointsAccount',
  'hope_points_account',
  'TrophyOutlined',
  L('积分排名', 'Points ranking'),
  'ranking',
  'points_account',
  [
    // places answered beside the row (dense: equal balances share a place, the next follows: 1, 1, 2)
    points('rank', L('全村名次', 'Place in village'), {
      readOnly: true,
      beside: true,
      sortable: false,
      unit: undefined,
    }),
    points('groupRank', L('组内名次', 'Place in group'), {
      readOnly: true,
      beside: true,
      sortable: false,
      unit: undefined,
    }),
    // the account's key: `V<villagerId>` or `H<householdNo>`, unique in the tenant
    text('ownerKey', L('账户', 'Account'), 40, { readOnly: true, list: false, form: false, view: false }),
    dict('accountKind', L('账户类型', 'Kind'), MALL_DICT.points_account_kind, { readOnly: true }),
    villagerRef('villagerId', L('村民(户主)', 'Villager (head)'), { readOnly: true }),
    text('householdNo', L('户号', 'Household no.'), 30, { readOnly: true, search: 'like' }),
    dict('villageGroup', L('村民小组', 'Village group'), VILLAGE_DICT.village_group, { readOnly: true }),
    points('balance', L('积分余额', 'Balance'), { readOnly: true, default: 0, sortable: true }),
    points('earned', L('累计获得', 'Earned'), { readOnly: true, default: 0, sortable: true }),
    points('spent', L('累计兑换', 'Spent'), { readOnly: true, default: 0 }),
    points('expired', L('累计过期', 'Expired'), { readOnly: true, default: 0 }),
  ],
  {
    path: 'points/account',
    readOnly: true,
    select: { label: 'ownerKey', search: ['ownerKey', 'householdNo'] },
    unique: ['ownerKey'],
    defaultSort: { field: 'balance', desc: true },
    excel: {
      fileName: L('积分排名', 'Points ranking'),
      export: true,
      notice: L('积分排名公示', 'Points ranking notice'),
    },
  },
);

/**
 * 积分记录: the ledger. A row is written by the server's one ledger path (a grant, an approved deed, an
 * exchange …) or added here as a cadre's grant or deduction with its reason, or imported as a batch;
 * it is never edited or removed (a correction is a reversing row).
 */
export const pointsRecordResource = resource(
  'pointsRecord',
  'hope_points_record',
  'ProfileOutlined',
  L('积分记录', 'Points records'),
  'record',
  'points_record',
  [
    villagerRef('villagerId', L('村民', 'Villager'), { required: true }),
    ref('accountId', L('积分账户', 'Account'), 'pointsAccount', MALL_DEMO.accountId, {
      readOnly: true,
      list: false,
      view: false,
      excel: false,
    }),
    points('points', L('积分变动', 'Change'), {
      required: true,
      min: -100000,
      max: 100000,
      example: 5,
      sortable: true,
    }),
    dict('eventType', L('积分事项', 'Event'), MALL_DICT.points_event, { readOnly: true }),
    ref('ruleId', L('积分规则', 'Rule'), 'pointsRule', MALL_DEMO.ruleId),
    text('reason', L('事由', 'Reason'), 200, { required: true, search: 'like', span: 24 }),
    text('bizId', L('业务单号', 'Business no.'), 64, { readOnly: true, list: false }),
    points('balanceAfter', L('变动后余额', 'Balance after'), { readOnly: true }),
    date('recordDate', L('变动日期', 'Date'), { readOnly: true, sortable: true }),
    points('remaining', L('未用积分', 'Unspent'), { readOnly: true, list: false, view: false }),
    date('expiresOn', L('过期日期', 'Expires on'), { readOnly: true }),
    text('operatorName', L('经办人', 'Handled by'), 30, { readOnly: true }),
  ],
  {
    path: 'points/record',
    appendOnly: true,
    // an account's open lots, in the order they are spent (the ledger's debits, the expiry, what expires)
    indexes: [
      { name: 'lots', fields: ['accountId', 'expiresOn', 'recordDate', 'id'], where: 'remaining > 0' },
      // an account's latest rows (villager/wx/points, the account's page), read backwards
      { name: 'account_latest', fields: ['accountId', 'createTime', 'id'] },
    ],
    unique: [['eventType', 'bizId']],
    defaultSort: { field: 'createTime', desc: true },
    excel: {
      fileName: L('积分记录', 'Points records'),
      import: true,
      export: true,
    },
  },
);

/** 积分审核: a villager's good deed with its photos, credited when a cadre approves it. */
export const pointsDeedResource = resource(
  'pointsDeed',
  'hope_points_deed',
  'AuditOutlined',
  L('积分审核', 'Deed review'),
  'deed',
  'points_deed',
  [
    villagerRef('villagerId', L('村民', 'Villager'), { required: true }),
    ref('ruleId', L('积分规则', 'Rule'), 'pointsRule', MALL_DEMO.deedRuleId, { required: true }),
    date('deedDate', L('事迹日期', 'Date'), { required: true, notAfterToday: true }),
    area('description', L('事迹描述', 'What was done'), 500, { required: true }),
    {
      name: 'evidence',
      label: L('佐证照片', 'Evidence'),
      type: 'image',
      max: 2000,
      required: true,
      list: false,
      excel: false,
      example: sampleImage,
    },
    dict('reviewStatus', L('审核状态', 'Review'), MALL_DICT.points_deed_status, {
      readOnly: true,
      default: DEED_STATUS.pending,
    }),
    points('creditedPoints', L('获得积分', 'Credited'), { readOnly: true }),
    text('reviewerName', L('审核人', 'Reviewed by'), 30, { readOnly: true }),
    { name: 'reviewTime', label: L('审核时间', 'Reviewed at'), type: 'datetime', readOnly: true },
    text('rejectReason', L('驳回原因', 'Why rejected'), 200, { readOnly: true }),
  ],
  { path: 'points/deed', defaultSort: { field: 'createTime', desc: true } },
);

/** 兑换列表: an exchange takes the points and the stock at once; 核销 at the counter hands the goods over. */
export const exchangeListResource = resource(
  'exchangeList',
  'hope_points_exchange',
  'CarryOutOutlined',
  L('兑换列表', 'Exchanges'),
  'exchange',
  'exchange_list',
  [
    villagerRef('villagerId', L('村民', 'Villager'), { required: true }),
    ref('goodsId', L('商品', 'Goods'), 'pointsGoods', MALL_DEMO.goodsId, { required: true }),
    {
      name: 'quantity',
      label: L('数量', 'Quantity'),
      type: 'int',
      required: true,
      min: 1,
      max: 100,
      default: 1,
      example: 1,
      unit: L('件', 'pcs'),
    },
    points('points', L('消耗积分', 'Points'), { readOnly: true }),
    dict('exchangeStatus', L('兑换状态', 'Status'), MALL_DICT.points_exchange_status, {
      readOnly: true,
      default: EXCHANGE_STATUS.toCollect,
    }),
    text('redeemCode', L('兑换码', 'Code'), 20, { readOnly: true, search: 'equal' }),
    text('verifierName', L('核销人', 'Verified by'), 30, { readOnly: true }),
    { name: 'verifyTime', label: L('核销时间', 'Verified at'), type: 'datetime', readOnly: true },
    text('cancelReason', L('取消原因', 'Why cancelled'), 200, { readOnly: true }),
  ],
  { unique: ['redeemCode'], editable: false, defaultSort: { field: 'createTime', desc: true } },
);

/** 积分概览: balances, points issued and redeemed per month. */
export interface MallOverview {
  accounts: number;
  balance: number;
  pending: number;
  toCollect: number;
  /** the last 12 months, oldest first: YYYY-MM, points credited, points redeemed */
  months: { month: string; issued: number; redeemed: number }[];
  /** what expires in the next 90 days */
  expiring: number;
}
const mall = (a: OverviewAnswers) => a.mall as MallOverview | undefined;

export const MALL_OVERVIEW: OverviewDecl = {
  code: 'points_overview',
  label: L('积分概览', 'Points overview'),
  path: '/mall/overview',
  icon: 'DashboardOutlined',
  title: L('积分概览', 'Points overview'),
  sources: { mall: { url: '/api/dfem-hope-manage/points/overview', watch: 'pointsRecord' } },
  figures: [
    { label: L('积分账户', 'Accounts'), value: (a) => mall(a)?.accounts },
    { label: L('积分余额合计', 'Total balance'), value: (a) => mall(a)?.balance },
    { label: L('待审核事迹', 'Deeds to review'), value: (a) => mall(a)?.pending },
    { label: L('待领取兑换', 'Exchanges to collect'), value: (a) => mall(a)?.toCollect },
    { label: L('90 天内过期', 'Expiring in 90 days'), value: (a) => mall(a)?.expiring },
  ],
  charts: [
    {
      kind: 'bars',
      wide: true,
      title: L('每月发放与兑换积分', 'Points issued and redeemed per month'),
      categories: (a) => (mall(a)?.months ?? []).map((m) => m.month),
      series: [
        {
          label: L('发放', 'Issued'),
          values: (a) => (mall(a)?.months ?? []).map((m) => m.issued),
          color: '#52c41a',
        },
        {
          label: L('兑换', 'Redeemed'),
          values: (a) => (mall(a)?.months ?? []).map((m) => m.redeemed),
          color: '#fa8c16',
        },
      ],
    },
  ],
};

/** 积分超市: the menu folder and its screens, in menu order. */
export const MALL_AREA = defineArea({
  code: 'mall',
  label: L('积分超市', 'Points mall'),
  icon: 'ShopOutlined',
  overview: MALL_OVERVIEW,
  resources: [
    pointsGoodsResource,
    exchangeListResource,
    pointsDeedResource,
    pointsRecordResource,
    pointsAccountResource,
    pointsRuleResource,
  ],
  buttons: {
    pointsRule: [{ code: 'switch', label: L('启用/停用', 'Switch on/off') }],
    pointsDeed: [
      { code: 'approve', label: L('通过', 'Approve') },
      { code: 'reject', label: L('驳回', 'Reject') },
    ],
    exchangeList: [
      { code: 'verify', label: L('核销', 'Verify') },
      { code: 'cancel', label: L('取消兑换', 'Cancel') },
    ],
    pointsRecord: [{ code: 'sub', label: L('积分调整', 'Adjust points') }],
  },
  dicts: MALL_DICTS,
});
