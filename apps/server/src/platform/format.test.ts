import { describe, expect, it } from 'vitest';
import { formatDateTime, formatInstant, timestamptzMs } from './format';

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

describe('timestamptzMs', () => {
  const same = (text: string) => {
    const expected = new Date(text).getTime();
    const got = timestamptzMs(text);
    expect(Number.isNaN(got) ? 'NaN' : got, text).toBe(Number.isNaN(expected) ? 'NaN' : expected);
  };

  it("reads what new Date reads from PostgreSQL's text of a timestamptz, and defers to it otherwise", () => {
    for (const text of [
      '2023-01-01 00:00:50+08',
      '2023-01-01 00:00:50.9999+08',
      '2023-01-01 00:00:50.999999+08',
      '2023-01-01 00:00:50.1+05:30',
      '2023-06-01 12:00:00-03',
      '2023-12-31 23:59:59-09:30',
      '2024-02-29 23:59:59.5+00',
      // not the fast form: read by new Date, whatever it makes of them
      '1901-01-01 00:00:00+08:05:43',
      '2023-02-29 10:00:00+00',
      '0999-01-01 00:00:00+00',
      '12345-01-01 00:00:00+00',
      '2023-01-01 00:00:00+00 BC',
      '2023-01-01 00:00:50.1234567+08',
      'infinity',
      '-infinity',
    ])
      same(text);
  });

  it('agrees with new Date over random instants, offsets and fractions', () => {
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let i = 0; i < 5000; i++) {
      const off = (Math.floor(rand() * 48) - 24) * 30;
      const d = new Date(Math.floor(rand() * 2.8e14) - 3e13 + off * 60_000);
      const digits = Math.floor(rand() * 7);
      const frac = digits
        ? `.${String(Math.floor(rand() * 1e6))
            .padStart(6, '0')
            .slice(0, digits)}`
        : '';
      const abs = Math.abs(off);
      const zone = `${off >= 0 ? '+' : '-'}${pad(Math.floor(abs / 60))}${abs % 60 ? `:${pad(abs % 60)}` : ''}`;
      same(
        `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
          `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac}${zone}`,
      );
    }
  });

  it('formatInstant writes what formatDateTime writes', () => {
    for (const ms of [0, 1_700_000_000_123, -1_000_000_000_000, Number.NaN])
      expect(formatInstant(ms, 'Asia/Shanghai')).toBe(formatDateTime(new Date(ms), 'Asia/Shanghai'));
  });
});
