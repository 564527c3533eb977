import { describe, expect, it } from 'vitest';
import { readingsAt } from '../telemetry/simulator';

/** The simulator's inverters and collectors: a credible day, counters that rise by the energy. */
const H = 3_600_000;
/** local (China) time of 2026-06-<d> */
const at = (d: number, h: number, m = 0) => Date.UTC(2026, 5, d, h, m) - 8 * H;

describe('the simulated PV day', () => {
  it('no power at night, a bell by day, the day’s energy rising from midnight', () => {
    const night = readingsAt('6', 'INV-0001', at(10, 2));
    expect(night.acPower).toBe(0);
    expect(night.inverterState).toBe(0);
    const noon = readingsAt('6', 'INV-0001', at(10, 12));
    const morning = readingsAt('6', 'INV-0001', at(10, 8));
    if (noon.inverterState !== 2) expect(noon.acPower).toBeGreaterThan(morning.acPower);
    expect(readingsAt('6', 'INV-0001', at(10, 0, 5)).energyToday).toBe(0);
    const evening = readingsAt('6', 'INV-0001', at(10, 20));
    expect(evening.energyToday).toBeGreaterThan(20);
    expect(evening.energyToday).toBeLessThan(50 * 13);
  });

  it('the lifetime counter rises by the energy made, and resets now and then', () => {
    let resets = 0;
    for (const serial of ['INV-0001', 'INV-0002', 'INV-0003'])
      for (let d = 1; d <= 30; d++)
        for (let h = 6; h < 23; h++) {
          const a = readingsAt('6', serial, at(d, h));
          const b = readingsAt('6', serial, at(d, h + 1));
          if (b.energyTotal < a.energyTotal) resets++;
          else expect(b.energyTotal - a.energyTotal).toBeCloseTo(b.energyToday - a.energyToday, 0);
        }
    expect(resets).toBeGreaterThan(0);
    expect(resets).toBeLessThan(8);
  });

  it('the broken collector and the inverter behind it say nothing; the others report', () => {
    expect(readingsAt('7', 'DC-0002', at(10, 12))).toEqual({});
    expect(readingsAt('6', 'INV-0004', at(10, 12))).toEqual({});
    const c = readingsAt('7', 'DC-0001', at(10, 12));
    expect(c.heartbeat).toBe(1);
    expect(c.signalStrength).toBeLessThan(0);
  });
});
