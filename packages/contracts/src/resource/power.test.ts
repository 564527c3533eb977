import { describe, expect, it } from 'vitest';
import {
  codeProblem,
  counterEnergy,
  distribute,
  fullLoadHours,
  incomeByDays,
  incomeCents,
  sumEnergy,
  tariffOn,
} from './power';

const D = 86_400_000;
const days = (n: number) => Array.from({ length: n }, (_, i) => i * D);
const b = (i: number, low: number, high: number, last: number) => ({ at: i * D, low, high, last });

describe('yield from a lifetime counter', () => {
  it('is the difference of consecutive lasts', () => {
    const e = counterEnergy(days(3), [b(0, 100, 110, 110), b(1, 110, 130, 130), b(2, 130, 131, 131)], 100);
    expect(e.map((x) => x.energy)).toEqual([10, 20, 1]);
  });

  it('without a reading before, the first bucket counts from its own lowest', () => {
    expect(counterEnergy(days(1), [b(0, 100, 112, 112)], null)[0].energy).toBe(12);
  });

  it('across a reset: the old counter up to its last reading, then the new one from its lowest', () => {
    // day 1: 1000 → 1015 then reset to 0 → 7
    const e = counterEnergy(days(3), [b(0, 990, 1000, 1000), b(1, 0, 1015, 7), b(2, 7, 30, 30)], 990);
    expect(e.map((x) => x.energy)).toEqual([10, 22, 23]);
    expect(e[1].reset).toBe(true);
  });

  it('a reset at the bucket boundary counts only the new counter', () => {
    const e = counterEnergy(days(2), [b(0, 990, 1000, 1000), b(1, 0.5, 12, 12)], 990);
    expect(e[1]).toMatchObject({ energy: 11.5, reset: true });
  });

  it('a gap is unknown, not zero, and the rise over it is counted after it', () => {
    const e = counterEnergy(days(4), [b(0, 100, 110, 110), b(3, 140, 150, 150)], 100);
    expect(e.map((x) => x.energy)).toEqual([10, null, null, 40]);
    expect(e[3].afterGap).toBe(true);
    expect(sumEnergy(e.map((x) => x.energy))).toBe(50);
    expect(sumEnergy([null, null])).toBeNull();
  });

  it('a replaced counter starting higher is not counted as energy', () => {
    // rated 50 kW: at most 1 200 kWh a day; the new counter reads 90 000
    const e = counterEnergy(
      days(3),
      [b(0, 100, 110, 110), b(1, 110, 90_010, 90_010), b(2, 90_010, 90_200, 90_200)],
      100,
      1200,
    );
    expect(e.map((x) => x.energy)).toEqual([10, null, 190]);
    expect(e[1].replaced).toBe(true);
  });

  it('full-load hours are energy over capacity', () => {
    expect(fullLoadHours(480, 160)).toBe(3);
    expect(fullLoadHours(null, 160)).toBeNull();
    expect(fullLoadHours(10, 0)).toBeNull();
  });
});

describe('profit to the cent', () => {
  it('income is energy × tariff rounded to the cent', () => {
    expect(incomeCents(14_236.4, 0.45)).toBe(640_638);
    expect(incomeCents(1000, 0.3949)).toBe(39_490);
    expect(incomeCents(0.1, 0.3)).toBe(3);
    expect(incomeCents(1.005, 1)).toBe(101);
  });

  it('shares are distributed by the largest remainder and sum to the income exactly', () => {
    const holders = [
      { villagerId: 'a', share: 1 },
      { villagerId: 'b', share: 1 },
      { villagerId: 'c', share: 1 },
    ];
    const d = distribute(100, holders);
    expect(d.map((x) => x.amount)).toEqual(['0.34', '0.33', '0.33']);
    for (const cents of [1, 7, 99, 100, 12_345, 640_638, 999_999]) {
      const unequal = distribute(cents, [
        { villagerId: 'a', share: 3 },
        { villagerId: 'b', share: 2 },
        { villagerId: 'c', share: 2 },
        { villagerId: 'd', share: 1 },
        { villagerId: 'e', share: 1 },
        { villagerId: 'f', share: 1 },
      ]);
      const sum = unequal.reduce((a, x) => a + Math.round(Number(x.amount) * 100), 0);
      expect(sum).toBe(cents);
    }
    // the largest remainders get the cents left: 10 cents by 3:1 → 7.5 / 2.5 → 8 / 2 (tie: the earlier)
    expect(
      distribute(10, [
        { villagerId: 'a', share: 3 },
        { villagerId: 'b', share: 1 },
      ]).map((x) => x.amount),
    ).toEqual(['0.08', '0.02']);
    expect(distribute(100, [])).toEqual([]);
  });
});

describe('collection settings', () => {
  it('each type has its schema: unknown keys, bad addresses and unknown types are refused', () => {
    const ok = { interval: 300, addresses: [1], metrics: [{ metric: 'acPower', address: 5030 }] };
    expect(codeProblem('1', ok)).toBeNull();
    expect(codeProblem('1', { ...ok, extra: 1 })).not.toBeNull();
    expect(codeProblem('1', { ...ok, addresses: [300] })?.en).toContain('addresses');
    expect(codeProblem('2', ok)?.en).toContain('server');
    expect(codeProblem('2', { ...ok, server: 'mqtt.example.com', port: 1883 })).toBeNull();
    expect(codeProblem('9', ok)).not.toBeNull();
  });
});

describe('tariff versions', () => {
  const versions = [
    { from: '2026-03-10', tariff: 0.4 },
    { from: '2026-03-20', tariff: 0.45 },
  ];
  it('the latest version from the day or before; the station’s own before the first', () => {
    expect(tariffOn('2026-03-09', versions, 0.3949)).toBe(0.3949);
    expect(tariffOn('2026-03-10', versions, 0.3949)).toBe(0.4);
    expect(tariffOn('2026-03-19', versions, 0.3949)).toBe(0.4);
    expect(tariffOn('2026-03-31', [...versions].reverse(), 0.3949)).toBe(0.45);
    // two from the same day: the later listed
    expect(tariffOn('2026-03-10', [...versions, { from: '2026-03-10', tariff: 0.5 }], 0)).toBe(0.5);
  });
  it('income is the sum of each day rounded to the cent; unknown days add nothing', () => {
    const r = incomeByDays(
      [
        ['2026-03-09', 1.5],
        ['2026-03-10', null],
        ['2026-03-19', 10.0125],
        ['2026-03-20', 3],
      ],
      versions,
      0.3949,
    );
    // 0.59235 → 59; 4.005 → 401; 1.35 → 135
    expect(r.cents).toBe(59 + 401 + 135);
    expect(r.tariffs).toEqual([0.3949, 0.4, 0.45]);
  });
});

describe('the under-performing string check', () => {
  it('judges each string against its siblings’ median, only while that median is meaningful', async () => {
    const { judgeStrings } = await import('./telemetry');
    const j = judgeStrings({ pv1Current: 8, pv2Current: 8, pv3Current: 3.2, pv4Current: 8 }, 30, 1);
    expect(j.filter((x) => x.low).map((x) => x.metric)).toEqual(['pv3Current']);
    expect(j.find((x) => x.metric === 'pv3Current')!.floor).toBe(5.6);
    expect(judgeStrings({ pv1Current: 0.5, pv2Current: 0.5, pv3Current: 0, pv4Current: 0.4 }, 30, 1)).toEqual(
      [],
    );
    expect(judgeStrings({ pv1Current: 8, pv2Current: 2 }, 30, 1)).toEqual([]);
    expect(judgeStrings({ pv1Current: 8, pv2Current: 8, pv3Current: 5.7 }, 30, 1).some((x) => x.low)).toBe(
      false,
    );
  });
});
