import { describe, expect, it } from 'vitest';
import { markOf, marksOf } from './marks';

describe('flow node display (spec §4)', () => {
  it('finished nodes success, active nodes primary, sequence flows warning', () => {
    expect(
      markOf({ historyActivityId: 'a', historyActivityType: 'userTask', endTime: '2024-01-01 00:00:00' }),
    ).toBe('flow-finished');
    expect(markOf({ historyActivityId: 'b', historyActivityType: 'userTask', endTime: null })).toBe(
      'flow-active',
    );
    expect(markOf({ historyActivityId: 'b', historyActivityType: 'userTask' })).toBe('flow-active');
    expect(markOf({ historyActivityId: 'f', historyActivityType: 'sequenceFlow', endTime: null })).toBe(
      'flow-sequence',
    );
  });

  it('a node visited again and still open is active', () => {
    const marks = marksOf([
      { historyActivityId: 'task', historyActivityType: 'userTask', endTime: 'x' },
      { historyActivityId: 'task', historyActivityType: 'userTask', endTime: null },
      { historyActivityId: 'task', historyActivityType: 'userTask', endTime: 'y' },
      { historyActivityId: '', historyActivityType: 'userTask', endTime: 'y' },
    ]);
    expect([...marks]).toEqual([['task', 'flow-active']]);
  });
});
