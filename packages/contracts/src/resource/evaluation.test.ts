import { describe, expect, it } from 'vitest';
import { clampScore, competitionRanks, evaluationTotal, parseRuleWeights, weightSum } from './evaluation';

describe('evaluation arithmetic (both ends run it)', () => {
  const rules = [
    { ruleId: 'a', weight: 60, maxScore: 10 },
    { ruleId: 'b', weight: 40, maxScore: 20 },
  ];
  it('a score is kept within 0 … its rule maximum', () => {
    expect(clampScore(15, 10)).toBe(10);
    expect(clampScore(-2, 10)).toBe(0);
    expect(clampScore('x', 10)).toBe(0);
    expect(clampScore(7.5, 10)).toBe(7.5);
  });
  it('the total weighs each clamped score as a share of its maximum, out of 100', () => {
    expect(evaluationTotal(rules, { a: 10, b: 20 })).toBe(100);
    expect(evaluationTotal(rules, { a: 99, b: 10 })).toBe(80);
    expect(evaluationTotal(rules, {})).toBe(0);
    expect(evaluationTotal(rules, { a: 3.33, b: 0 })).toBe(19.98);
  });
  it('weights sum to the hundredth; malformed weights are null', () => {
    expect(weightSum([{ weight: 33.33 }, { weight: 33.33 }, { weight: 33.34 }])).toBe(100);
    expect(parseRuleWeights('[{"ruleId":"1","weight":100}]')).toEqual([{ ruleId: '1', weight: 100 }]);
    expect(parseRuleWeights('{bad')).toBeNull();
    expect(parseRuleWeights('[]')).toBeNull();
    expect(parseRuleWeights('[{"ruleId":"1","weight":-1}]')).toBeNull();
  });
  it('places are standard competition ranks: equal totals share a place (并列), the next place skips', () => {
    expect(competitionRanks([90, 84, 90, 70, 84]).map((r) => r.rank)).toEqual([1, 3, 1, 5, 3]);
    expect(competitionRanks([90, 84, 90, 70, 84]).map((r) => r.tied)).toEqual([
      true,
      true,
      true,
      false,
      true,
    ]);
    expect(competitionRanks([70])).toEqual([{ rank: 1, tied: false }]);
  });
});
