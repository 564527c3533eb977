import { describe, expect, it } from 'vitest';
import { polygonMu, stepOverdue } from './agriculture';
import { creditCodeCheckChar, creditCodeProblem } from './formats';

describe('polygonMu: a plot’s area in 亩 from its WGS-84 corners', () => {
  // about 100 m × 100 m at 28.2°N: 10 000 m² = 15 亩
  const dLng = 100 / (111_320 * Math.cos((28.2 * Math.PI) / 180));
  const dLat = 100 / 110_574;
  const square = [
    [112.9, 28.2],
    [112.9 + dLng, 28.2],
    [112.9 + dLng, 28.2 + dLat],
    [112.9, 28.2 + dLat],
  ];

  it('measures an open or a closed ring, as an array or its JSON text', () => {
    const mu = polygonMu(square)!;
    expect(mu).toBeGreaterThan(14.9);
    expect(mu).toBeLessThan(15.1);
    expect(polygonMu(JSON.stringify(square))).toBe(mu);
    expect(polygonMu([...square, square[0]])).toBe(mu);
  });

  it('is null for what is not a polygon', () => {
    expect(polygonMu('[[1,2],[3,4]]')).toBeNull();
    expect(polygonMu('not json')).toBeNull();
    expect(
      polygonMu([
        [1, 2],
        [3, 'x'],
        [5, 6],
      ]),
    ).toBeNull();
  });
});

describe('stepOverdue', () => {
  it('is a step past its day and not done', () => {
    expect(stepOverdue({ plannedDate: '2026-03-01' }, '2026-03-02')).toBe(true);
    expect(stepOverdue({ plannedDate: '2026-03-01', doneDate: '2026-03-03' }, '2026-03-05')).toBe(false);
    expect(stepOverdue({ plannedDate: '2026-03-01' }, '2026-03-01')).toBe(false);
    expect(stepOverdue({}, '2026-03-01')).toBe(false);
  });
});

describe('unified social credit code (GB 32100)', () => {
  it('accepts published codes and computes their check character', () => {
    for (const code of ['91350100M000100Y43', '91110000600037341L'])
      expect([creditCodeProblem(code), creditCodeCheckChar(code)]).toEqual([null, code[17]]);
  });
  it('refuses a wrong length, a letter it never uses, a wrong check character', () => {
    expect(creditCodeProblem('91350100M000100Y4')).toBe('format');
    expect(creditCodeProblem('91350100M000100I43')).toBe('format');
    expect(creditCodeProblem('91350100M000100Y44')).toBe('check');
  });
});
