import { describe, expect, it } from 'vitest';
import { symmetricAxis } from './axes';

describe('symmetricAxis', () => {
  it('gives both sides the larger side’s bound, rounded up to whole round steps', () => {
    expect(symmetricAxis([12, 33, 5])).toEqual({ bound: 40, step: 20 });
    expect(symmetricAxis([-33, 12])).toEqual({ bound: 40, step: 20 });
    expect(symmetricAxis([7, 3])).toEqual({ bound: 10, step: 5 });
    expect(symmetricAxis([120, 80])).toEqual({ bound: 150, step: 50 });
    expect(symmetricAxis([2])).toEqual({ bound: 2, step: 1 });
    expect(symmetricAxis([])).toEqual({ bound: 1, step: 1 });
  });

  it('always reaches the largest value, in at most about four steps a side', () => {
    for (let top = 1; top <= 2000; top += 7) {
      const { bound, step } = symmetricAxis([top, top / 2]);
      expect(bound).toBeGreaterThanOrEqual(top);
      expect(bound % step).toBe(0);
      expect(bound / step).toBeLessThanOrEqual(4);
    }
  });
});
