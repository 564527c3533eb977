import { describe, expect, it } from 'vitest';
import { decodeChunk, encodeChunk, mergePoints, type Point } from './chunk-codec';

const DAY = Date.UTC(2026, 9, 5);
const every5 = (values: number[], jitter: (i: number) => number = () => 0): Point[] =>
  values.map((value, i) => ({ at: DAY + i * 300_000 + jitter(i), value }));

/** The chunk codec: exact round trips in every form, and the few bytes a regular reading costs. */
describe('chunk codec', () => {
  const roundTrip = (points: Point[]) => {
    const data = encodeChunk(DAY, points);
    const back = decodeChunk(DAY, data);
    expect(back.length).toBe(points.length);
    for (const [i, p] of points.entries()) {
      expect(back[i].at).toBe(p.at);
      expect(Object.is(back[i].value, p.value)).toBe(true);
    }
    return data.length;
  };

  it('a day of 5-minute sensor values: exact, and about 2–3 bytes a reading', () => {
    const temps = Array.from({ length: 288 }, (_, i) => Math.round((20 + 5 * Math.sin(i / 40)) * 10) / 10);
    const bytes = roundTrip(every5(temps));
    expect(bytes / 288).toBeLessThan(3);
    const counter = Array.from({ length: 288 }, (_, i) => Math.round((12_345.67 + i * 0.83) * 100) / 100);
    expect(roundTrip(every5(counter)) / 288).toBeLessThan(4);
  });

  it('irregular times, negatives, integers, large and tiny decimals', () => {
    roundTrip(every5([0, -1, 2, -3.5, 1e9, 0.000001, -0.000002, 7], (i) => (i * 7919) % 1000));
    roundTrip(every5([123456789.123456, -987654.5]));
    roundTrip([{ at: DAY + 86_399_999, value: 42 }]);
    roundTrip([]);
  });

  it('values that are no short decimal fall back to float64, still exact (and -0 stays -0)', () => {
    roundTrip(every5([Math.PI, 1 / 3, -0, 1e-300, Number.MAX_VALUE, 2 ** 60]));
    roundTrip(every5([-0]));
    roundTrip(every5([0.1 + 0.2]));
  });

  it('refuses a truncated or unknown chunk', () => {
    const data = encodeChunk(DAY, every5([1.5, 2.5, 3.5]));
    expect(() => decodeChunk(DAY, data.subarray(0, data.length - 1))).toThrow(/truncated/);
    expect(() => decodeChunk(DAY, Uint8Array.from([9, 0]))).toThrow(/format/);
  });

  it('merges two time-ordered lists, the first winning a tie', () => {
    const a = [
      { at: 1, value: 1 },
      { at: 3, value: 3 },
    ];
    const b = [
      { at: 2, value: 20 },
      { at: 3, value: 30 },
      { at: 4, value: 40 },
    ];
    expect(mergePoints(a, b).map((p) => [p.at, p.value])).toEqual([
      [1, 1],
      [2, 20],
      [3, 3],
      [4, 40],
    ]);
  });
});
