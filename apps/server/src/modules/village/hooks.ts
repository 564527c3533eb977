import { gradeOfScore, idCardInfo } from '@smart/contracts';
import { and, eq } from 'drizzle-orm';
import type { ResourceHooks } from '../../platform/crud/binding';
import type { Db } from '../../platform/db';
import { notDeleted } from '../../platform/sql';
import { scoreRankCredits, taskCredits } from '../mall/credits';
import { wxPointsEndpoint } from '../mall/wx-points';
import { householdEndpoint, householdsEndpoint, rankingEndpoint } from './endpoints';
import { scoreRankRule } from './tables';

/** What differs from the engine's pattern in village affairs: values the server computes, views beyond lists. */

const money = (v: unknown) => (v === null || v === undefined || v === '' ? 0 : Number(v));

/** A villager's birth date and sex, when left empty, are read from the ID number (which they must agree with). */
const villagerHooks: ResourceHooks = {
  beforeWrite(_ctx, record) {
    const info = record.idCard ? idCardInfo(String(record.idCard)) : null;
    if (!info) return;
    if (!record.birthDate) record.birthDate = info.birthDate;
    if (record.sex === null || record.sex === undefined || record.sex === '') record.sex = info.sex;
  },
};

/** A household's total and per-capita income follow from its incomes by kind and its size. */
const incomeHooks: ResourceHooks = {
  beforeWrite(_ctx, record) {
    const kinds = ['wageIncome', 'businessIncome', 'propertyIncome', 'transferIncome'];
    if (!kinds.some((k) => k in record) && !('familySize' in record)) return;
    const total = kinds.reduce((sum, k) => sum + money(record[k]), 0);
    record.totalIncome = total.toFixed(2);
    const size = Number(record.familySize) || 1;
    record.perCapita = (total / size).toFixed(2);
  },
};

/**
 * A score record takes its points from its rule (a rule awards or deducts), so the ranking, which adds the
 * records up, follows the rules. A rule the caller cannot see is refused by the engine's reference check.
 */
function scoreHooks(db: Db): ResourceHooks {
  return {
    async beforeWrite(ctx, record) {
      if (!record.ruleId) return;
      const [rule] = await db
        .select({ points: scoreRankRule.points })
        .from(scoreRankRule)
        .where(
          and(
            eq(scoreRankRule.id, String(record.ruleId)),
            eq(scoreRankRule.tenantId, ctx.tenantId),
            notDeleted(scoreRankRule.isDeleted),
          ),
        )
        .limit(1);
      if (rule) record.points = rule.points;
    },
  };
}

/** A task's grade follows from its score (the contracts' `gradeOfScore`), whatever path writes it. */
const taskHooks: ResourceHooks = {
  beforeWrite(_ctx, record, mode) {
    if (mode === 'create' || 'score' in record) record.grade = gradeOfScore(record.score);
  },
};

/** The village resources with behaviour beyond the engine's pattern (the area: ./area.ts). */
export function villageHooks(db: Db): Record<string, ResourceHooks> {
  return {
    villager: { ...villagerHooks, endpoints: [householdsEndpoint, householdEndpoint, wxPointsEndpoint] },
    villagerIncome: incomeHooks,
    evaluationTask: { ...taskHooks, ...taskCredits },
    scoreRank: { ...scoreHooks(db), ...scoreRankCredits, endpoints: [rankingEndpoint] },
  };
}
