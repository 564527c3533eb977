import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format';

/** What Intl says, the reference the fast path must match to the second. */
const reference = (d: Date, timeZone: string) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(d);

describe('formatDateTime', () => {
  it('writes YYYY-MM-DD HH:mm:ss in the given zone', () => {
    expect(formatDateTime(new Date('2026-11-22T01:02:03Z'), 'Asia/Shanghai')).toBe('2026-11-22 09:02:03');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime(new Date(Number.NaN))).toBe('');
  });

  it('agrees with Intl across daylight-saving changes, half-hour zones and old local mean times', () => {
    const zones = [
      'Asia/Shanghai',
      'America/New_York',
      'Europe/London',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
    ];
    const instants: number[] = [];
    // around the 2024 transitions of New York, London and Lord Howe, minute by minute
    for (const at of [
      '2024-03-10T06:30:00Z',
      '2024-03-31T00:30:00Z',
      '2024-04-06T14:30:00Z',
      '2024-11-03T05:30:00Z',
    ])
      for (let m = 0; m < 120; m += 7) instants.push(Date.parse(at) + m * 60_000 + 13_000);
    // a spread over a century, including Shanghai before standard time (LMT +08:05:43)
    for (let i = 0; i < 400; i++) instants.push(Date.UTC(1890, 0, 1) + i * 8_123_456_789);
    for (const zone of zones)
      for (const ms of instants)
        expect(formatDateTime(new Date(ms), zone), `${zone} ${ms}`).toBe(reference(new Date(ms), zone));
  });
});
