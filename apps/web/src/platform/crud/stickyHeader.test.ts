import { describe, expect, it } from 'vitest';
import { headerShift } from './stickyHeader';

describe('the sticky header row', () => {
  it('stays put while the table top is in view', () => {
    expect(headerShift(100, 150, 2000, 55)).toBe(0);
    expect(headerShift(100, 100, 2000, 55)).toBe(0);
  });

  it('moves down to the area’s top edge as the table scrolls under it', () => {
    expect(headerShift(100, -400, 2000, 55)).toBe(500);
  });

  it('never past the last row', () => {
    expect(headerShift(100, -3000, 2000, 55)).toBe(1945);
  });
});
