import { describe, expect, it } from 'vitest';
import { endBeforeStart, leaveDays } from './leave';

describe('leave form rules', () => {
  it('refuse an end before the start only', () => {
    expect(endBeforeStart('2026-12-02 09:00:00', '2026-12-01 18:00:00')).toBe(true);
    expect(endBeforeStart('2026-12-02 09:00:00', '2026-12-02 09:00:00')).toBe(false);
    expect(endBeforeStart('2026-12-02 09:00:00', '2026-12-02 09:00:01')).toBe(false);
    expect(endBeforeStart(undefined, '2026-12-01 18:00:00')).toBe(false);
    expect(endBeforeStart('2026-12-01 18:00:00', '')).toBe(false);
  });

  it('count days like the server', () => {
    expect(leaveDays('2026-12-01 09:00:00', '2026-12-02 18:00:00')).toBe(1.4);
    expect(leaveDays('2026-12-02 09:00:00', '2026-12-01 09:00:00')).toBe(0);
    expect(leaveDays('x', 'y')).toBe(0);
  });
});
