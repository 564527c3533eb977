import { dictCodes, dictionary, numbered } from './dicts';
import { ref, text } from './fields';
import { areaResource, defineArea, type FieldDef, L } from './types';
import { VILLAGE_DEMO } from './village';

/** Evaluation's dictionaries (seed step evaluation-v1). */
export const EVALUATION_DICTS = [
  dictionary(
    'evaluation_project_status',
    L('评比项目状态', 'Evaluation project status'),
    numbered([
      ['草稿', 'Draft'],
      ['进行中', 'In progress'],
      ['已发布', 'Published'],
    ]),
  ),
  dictionary(
    'evaluation_subject_type',
    L('评比对象类型', 'Evaluated subject type'),
    numbered([
      ['村民小组', 'Villager group'],
      ['农户', 'Household'],
      ['村干部', 'Cadre'],
    ]),
  ),
];

/** What a field names its dictionary by: `EVALUATION_DICT.<code>` (a code not declared above does not compile). */
export const EVALUATION_DICT = dictCodes(EVALUATION_DICTS);

/**
 * Evaluation (评比, spec §7 dfem-hope-manage: evaluationRuleCategory, evaluationRule, evaluationProject,
 * evaluationList): rules grouped by a category tree, projects that weigh a set of rules (the weights sum to
 * 100), the subjects a project evaluates with their scores per rule, the weighted total and a ranking (standard competition: ties share a place, 并列).
 * A published project is frozen until it is explicitly reopened (the reopening is recorded). The weighted
 * total is computed by `evaluationTotal` below, on the screen (its preview) and on the server (what it
 * stores) alike. Domain: shared/design/domain.md "Evaluation".
 */

const SERVICE = 'dfem-hope-manage';

/** Rows the demo seed always creates (tenant 000000): generated tests reference them as valid samples. */
export const EVALUATION_DEMO = {
  categoryId: '1190000000001000001',
  ruleId: '1190000000001100001',
  /** in progress: open to scoring */
  projectId: '1190000000001200001',
  /** published: frozen */
  publishedProjectId: '1190000000001200002',
} as const;

/** The project status dictionary's keys (evaluation_project_status). */
export const PROJECT_STATUS = { draft: '1', inProgress: '2', published: '3' } as const;

const resource = areaResource(SERVICE, 'evaluation');

const sort = (): FieldDef => ({
  name: 'sort',
  label: L('排序', 'Sort'),
  type: 'int',
  min: 0,
  max: 10000,
  default: 0,
});

/** The overview screen: not a list, so not a definition; it reads the latest project and its ranking. */
export const EVALUATION_OVERVIEW = {
  code: 'evaluation_overview',
  label: L('评比概览', 'Evaluation overview'),
  path: '/evaluation/overview',
  icon: 'BarChartOutlined',
} as const;

/** 评比规则分类: a tree of categories (roots answered by `rootCategory`). */
export const evaluationRuleCategoryResource = resource(
  'evaluationRuleCategory',
  'hope_evaluation_rule_category',
  'ClusterOutlined',
  L('规则分类', 'Rule categories'),
  'category',
  'evaluation_rule_category',
  [
    text('name', L('分类名称', 'Category'), 40, { required: true, search: 'like' }),
    {
      name: 'parentId',
      label: L('上级分类', 'Parent category'),
      type: 'ref',
      ref: 'evaluationRuleCategory',
      list: false,
    },
    sort(),
    { name: 'remark', label: L('备注', 'Remark'), type: 'textarea', max: 255, span: 24, list: false },
  ],
  { tree: true, defaultSort: { field: 'sort' }, select: { label: 'name', search: ['name'] } },
);

/** 评比规则: what is assessed, its default weight in a project and its maximum score. */
export const evaluationRuleResource = resource(
  'evaluationRule',
  'hope_evaluation_rule',
  'AuditOutlined',
  L('评比规则', 'Rules'),
  'rule',
  'evaluation_rule',
  [
    {
      name: 'categoryId',
      label: L('规则分类', 'Category'),
      type: 'ref',
      ref: 'evaluationRuleCategory',
      required: true,
      search: 'equal',
      example: EVALUATION_DEMO.categoryId,
    },
    text('name', L('规则名称', 'Rule'), 60, { required: true, search: 'like' }),
    {
      name: 'content',
      label: L('评分标准', 'Criteria'),
      type: 'textarea',
      max: 1000,
      span: 24,
      list: false,
    },
    {
      name: 'weight',
      label: L('默认权重', 'Default weight'),
      type: 'decimal',
      required: true,
      min: 0,
      max: 100,
      example: 20,
    },
    {
      name: 'maxScore',
      label: L('满分', 'Maximum score'),
      type: 'decimal',
      required: true,
      min: 1,
      max: 1000,
      example: 100,
    },
    sort(),
  ],
  { defaultSort: { field: 'sort' }, select: { label: 'name', search: ['name'] } },
);

/** 评比项目: a period, a status, and the rules it uses with their weights (summing to 100). */
export const evaluationProjectResource = resource(
  'evaluationProject',
  'hope_evaluation_project',
  'CalendarOutlined',
  L('评比项目', 'Projects'),
  'project',
  'evaluation_project',
  [
    text('name', L('项目名称', 'Project'), 60, { required: true, search: 'like' }),
    { name: 'startDate', label: L('开始日期', 'Starts on'), type: 'date', required: true },
    {
      name: 'endDate',
      label: L('结束日期', 'Ends on'),
      type: 'date',
      required: true,
      notBefore: 'startDate',
    },
    {
      name: 'projectStatus',
      label: L('项目状态', 'Status'),
      type: 'dict',
      dict: EVALUATION_DICT.evaluation_project_status,
      readOnly: true,
      search: 'equal',
    },
    {
      name: 'ruleWeights',
      label: L('规则及权重', 'Rules and weights'),
      type: 'json',
      required: true,
      span: 24,
      list: false,
      excel: true,
      example: JSON.stringify([{ ruleId: EVALUATION_DEMO.ruleId, weight: 100 }]),
    },
    {
      name: 'reopenHistory',
      label: L('重新开放记录', 'Reopenings'),
      type: 'json',
      readOnly: true,
      detailOnly: true,
      list: false,
      excel: false,
    },
    { name: 'remark', label: L('备注', 'Remark'), type: 'textarea', max: 500, span: 24, list: false },
  ],
  {
    defaultSort: { field: 'startDate', desc: true },
    select: { label: 'name', search: ['name'] },
    unique: ['name'],
    // a re-imported project (by its name) is updated, not added
    excel: { fileName: L('评比项目', 'evaluation-projects'), import: true, export: true, key: 'name' },
  },
);

/** 评比名单: a subject a project evaluates, its scores per rule (`{ruleId: score}`), total and rank. */
export const evaluationListResource = resource(
  'evaluationList',
  'hope_evaluation_list',
  'StarOutlined',
  L('评比打分', 'Scoring'),
  'list',
  'evaluation_list',
  [
    {
      name: 'projectId',
      label: L('评比项目', 'Project'),
      type: 'ref',
      ref: 'evaluationProject',
      required: true,
      search: 'equal',
      example: EVALUATION_DEMO.projectId,
    },
    text('subjectName', L('评比对象', 'Subject'), 60, { required: true, search: 'like' }),
    {
      name: 'subjectType',
      label: L('对象类型', 'Subject type'),
      type: 'dict',
      dict: EVALUATION_DICT.evaluation_subject_type,
      required: true,
      search: 'equal',
    },
    // a household or a cadre is a villager: a place among the first three earns them the tenant's 评比结果
    // points when the project is published (the points mall's ledger)
    ref('villagerId', L('对应村民', 'Villager'), 'villager', VILLAGE_DEMO.villagerId, {
      list: false,
      search: undefined,
    }),
    {
      name: 'scores',
      label: L('各项得分', 'Scores per rule'),
      type: 'json',
      readOnly: true,
      list: false,
      excel: false,
      // the view shows each rule's score by the rule's name
      view: true,
      span: 24,
      table: [
        { key: 'key', label: L('评比规则', 'Rule'), ref: 'evaluationRule' },
        { key: 'value', label: L('得分', 'Score'), type: 'decimal' },
      ],
    },
    {
      name: 'totalScore',
      label: L('加权总分', 'Weighted total'),
      type: 'decimal',
      readOnly: true,
      default: 0,
      sortable: true,
    },
    {
      // the place in its project, answered beside the row by the server (standard competition ranking, and
      // `tied` beside it when the place is shared: 并列)
      name: 'rank',
      label: L('名次', 'Place'),
      type: 'int',
      readOnly: true,
      form: false,
      beside: true,
      sortable: false,
      excel: false,
    },
  ],
  { defaultSort: { field: 'totalScore', desc: true } },
);

/** 评比: the menu folder and its screens, in menu order. */
export const EVALUATION_AREA = defineArea({
  code: 'evaluation',
  label: L('评比管理', 'Evaluation'),
  icon: 'TrophyOutlined',
  screens: [EVALUATION_OVERVIEW],
  resources: [
    evaluationListResource,
    evaluationProjectResource,
    evaluationRuleResource,
    evaluationRuleCategoryResource,
  ],
  buttons: {
    evaluationList: [{ code: 'score', label: L('打分', 'Score') }],
    evaluationProject: [
      { code: 'publish', label: L('发布', 'Publish') },
      { code: 'reopen', label: L('重新开放', 'Reopen') },
    ],
  },
  dicts: EVALUATION_DICTS,
  home: [
    {
      key: 'evaluating',
      label: L('进行中的评比项目', 'Evaluations in progress'),
      resource: 'evaluationProject',
      order: 50,
    },
  ],
});

// ---- the arithmetic both ends run -------------------------------------------------------------------

/** a rule as a project weighs it */
export interface WeightedRule {
  ruleId: string;
  weight: number;
  maxScore: number;
}

/** the project's `ruleWeights`, read leniently (null when it is not a list of {ruleId, weight}) */
export function parseRuleWeights(json: unknown): { ruleId: string; weight: number }[] | null {
  let v: unknown = json;
  if (typeof json === 'string') {
    try {
      v = JSON.parse(json);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(v) || !v.length) return null;
  const out: { ruleId: string; weight: number }[] = [];
  for (const x of v) {
    if (!x || typeof x !== 'object') return null;
    const { ruleId, weight } = x as Record<string, unknown>;
    const w = Number(weight);
    if ((typeof ruleId !== 'string' && typeof ruleId !== 'number') || !Number.isFinite(w) || w < 0)
      return null;
    out.push({ ruleId: String(ruleId), weight: w });
  }
  return out;
}

/** Σ weights, to the hundredth (so 33.33 + 33.33 + 33.34 is exactly 100) */
export const weightSum = (ws: { weight: number }[]): number =>
  Math.round(ws.reduce((s, w) => s + w.weight * 100, 0)) / 100;

/** a score kept within 0 … the rule's maximum; not a number is 0 */
export function clampScore(score: unknown, maxScore: number): number {
  const n = Number(score);
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.min(n, maxScore);
}

/**
 * The weighted total of one subject: each rule's score (clamped) as a share of its maximum, times its
 * weight; the weights sum to 100, so the total is out of 100. Rounded to the hundredth.
 */
export function evaluationTotal(rules: WeightedRule[], scores: Record<string, unknown>): number {
  let total = 0;
  for (const r of rules) {
    if (!(r.maxScore > 0)) continue;
    total += (clampScore(scores[r.ruleId], r.maxScore) / r.maxScore) * r.weight;
  }
  return Math.round(total * 100) / 100;
}

/**
 * The product's places (every ranking: evaluation, the village's score ranking): standard competition
 * ranking — equal totals share a place and the next place skips (90, 90, 80 → 1, 1, 3), each shared place
 * marked 并列 (`tied`); in the order given
 */
export function competitionRanks(totals: number[]): { rank: number; tied: boolean }[] {
  return totals.map((t) => ({
    rank: totals.filter((o) => o > t).length + 1,
    tied: totals.filter((o) => o === t).length > 1,
  }));
}
