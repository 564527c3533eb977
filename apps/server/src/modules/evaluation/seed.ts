import { EVALUATION_DEMO, evaluationTotal, PROJECT_STATUS, type WeightedRule } from '@smart/contracts';
import type { Db } from '../../platform/db';
import { insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import * as t from './tables';

/**
 * Evaluation: its dictionaries and a demo in tenant 000000 — a category tree, five rules, a published
 * project of last year and this year's in progress, each scoring the six village groups of 青山村 (totals
 * computed by the contracts' `evaluationTotal`, as the server's scoring does; one tie to show a shared place, 并列).
 */
export async function seedEvaluation(db: Db) {
  const base = { tenantId: '000000', createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  const id = (start: string, i: number) => String(BigInt(start) + BigInt(i));
  const cat = (i: number) => id(EVALUATION_DEMO.categoryId, i);
  const categories: [name: string, parent: number | null][] = [
    ['人居环境', null],
    ['乡风文明', null],
    ['产业发展', null],
    ['庭院卫生', 0],
    ['移风易俗', 1],
  ];
  await insertAll(
    db,
    t.evaluationRuleCategory,
    categories.map(([name, parent], i) => ({
      ...base,
      id: cat(i),
      name,
      parentId: parent === null ? null : cat(parent),
      sort: i + 1,
    })),
  );
  const rules: [category: number, name: string, weight: number, max: number, content: string][] = [
    [3, '庭院整洁', 30, 10, '院落干净、物品摆放有序,无乱堆乱放'],
    [3, '垃圾分类', 20, 10, '按要求分类投放,无乱扔乱倒'],
    [4, '婚事新办、丧事简办', 25, 20, '红白事按规定备案,不大操大办'],
    [1, '邻里和睦', 15, 10, '无矛盾纠纷上访,积极参与调解'],
    [2, '产业增收', 10, 5, '发展特色种养,带动增收'],
  ];
  const ruleId = (i: number) => id(EVALUATION_DEMO.ruleId, i);
  await insertAll(
    db,
    t.evaluationRule,
    rules.map(([c, name, weight, maxScore, content], i) => ({
      ...base,
      id: ruleId(i),
      categoryId: cat(c),
      name,
      weight: String(weight),
      maxScore: String(maxScore),
      content,
      sort: i + 1,
    })),
  );
  const groups = [
    '第一村民小组',
    '第二村民小组',
    '第三村民小组',
    '第四村民小组',
    '第五村民小组',
    '第六村民小组',
  ];
  const projects = [
    {
      id: EVALUATION_DEMO.projectId,
      name: '2026年度“美丽庭院”评比',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      projectStatus: PROJECT_STATUS.inProgress,
      weights: rules.map(([, , weight], i) => ({ ruleId: ruleId(i), weight })),
      // scores per rule (in rule order) of each group; groups 2 and 4 tie
      scores: [
        [9, 8, 18, 9, 4],
        [8, 9, 16, 8, 5],
        [7, 7, 15, 10, 3],
        [8, 9, 16, 8, 5],
        [6, 8, 12, 7, 2],
        [9, 9, 19, 9, 4],
      ],
    },
    {
      id: EVALUATION_DEMO.publishedProjectId,
      name: '2025年度文明村民小组评比',
      startDate: '2025-01-01',
      endDate: '2025-12-31',
      projectStatus: PROJECT_STATUS.published,
      weights: [
        { ruleId: ruleId(0), weight: 40 },
        { ruleId: ruleId(2), weight: 40 },
        { ruleId: ruleId(3), weight: 20 },
      ],
      scores: [
        [8, 0, 16, 9, 0],
        [9, 0, 17, 8, 0],
        [7, 0, 18, 9, 0],
        [8, 0, 15, 10, 0],
        [9, 0, 19, 7, 0],
        [6, 0, 14, 8, 0],
      ],
    },
  ];
  await insertAll(
    db,
    t.evaluationProject,
    projects.map((p) => ({
      ...base,
      id: p.id,
      name: p.name,
      startDate: p.startDate,
      endDate: p.endDate,
      projectStatus: p.projectStatus,
      ruleWeights: JSON.stringify(p.weights),
      reopenHistory: '[]',
    })),
  );
  const maxOf = new Map(rules.map(([, , , max], i) => [ruleId(i), max]));
  await insertAll(
    db,
    t.evaluationList,
    projects.flatMap((p) => {
      const weighted: WeightedRule[] = p.weights.map((w) => ({ ...w, maxScore: maxOf.get(w.ruleId)! }));
      return groups.map((subjectName, g) => {
        const scores = Object.fromEntries(
          weighted.map((w) => [
            w.ruleId,
            p.scores[g][Number(BigInt(w.ruleId) - BigInt(EVALUATION_DEMO.ruleId))],
          ]),
        );
        return {
          ...base,
          projectId: p.id,
          subjectName,
          subjectType: '1',
          scores: JSON.stringify(scores),
          totalScore: evaluationTotal(weighted, scores).toFixed(2),
        };
      });
    }),
  );
}
