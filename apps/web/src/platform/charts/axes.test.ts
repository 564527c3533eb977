import { describe, expect, it } from 'vitest';
import { symmetricBound } from './axes';

describe('symmetricBound', () => {
  it('rounds the larger side up to a round figure, the same for both sides', () => {
    expect(symmetricBound([12, 37, 5])).toBe(40);
    expect(symmetricBound([-37, 12])).toBe(40);
    expect(symmetricBound([7, 3])).toBe(7);
    expect(symmetricBound([120, 80])).toBe(150);
    expect(symmetricBound([])).toBe(1);
    expect(symmetricBound([0, 0])).toBe(1);
  });
});
