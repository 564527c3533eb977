/** Date-times on the wire are `YYYY-MM-DD HH:mm:ss` in the server's time zone (api-contract §Identifiers). */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset from UTC at instant `ms`, in ms (whole seconds: historical local mean times have them). */
function offsetAt(timeZone: string, ms: number): number {
  const wall = formatterOf(timeZone).format(new Date(ms));
  const local = Date.parse(`${wall.replace(' ', 'T')}Z`);
  return local - Math.floor(ms / 1000) * 1000;
}

const BUCKET_MS = 15 * 60 * 1000;
/** per zone: offsets by quarter hour; only buckets without a transition inside are kept */
const offsets = new Map<string, Map<number, number>>();
let offsetsKept = 0;

/**
 * Intl formats a date in microseconds; the list pages format thousands a second. The offset is read from
 * Intl once per zone and quarter hour (when it is the same at both ends of it) and the rest is arithmetic.
 */
export function formatDateTime(
  d: Date | null | undefined,
  timeZone = process.env.TZ || 'Asia/Shanghai',
): string {
  if (!d) return '';
  return formatInstant(d.getTime(), timeZone);
}

/** formatDateTime of the instant `ms` (milliseconds since the epoch), without a Date to hold it. */
export function formatInstant(ms: number, timeZone: string): string {
  if (!Number.isFinite(ms)) return '';
  const bucket = Math.floor(ms / BUCKET_MS);
  let zone = offsets.get(timeZone);
  let offset = zone?.get(bucket);
  if (offset === undefined) {
    const first = offsetAt(timeZone, bucket * BUCKET_MS);
    const last = offsetAt(timeZone, (bucket + 1) * BUCKET_MS - 1000);
    if (first !== last) return formatterOf(timeZone).format(new Date(ms));
    if (offsetsKept >= 50_000) {
      offsets.clear();
      offsetsKept = 0;
      zone = undefined;
    }
    if (!zone) {
      zone = new Map();
      offsets.set(timeZone, zone);
    }
    zone.set(bucket, first);
    offsetsKept++;
    offset = first;
  }
  const t = new Date(ms + offset);
  const year = t.getUTCFullYear();
  if (year < 1000 || year > 9999) return formatterOf(timeZone).format(new Date(ms));
  return (
    `${year}-${two(t.getUTCMonth() + 1)}-${two(t.getUTCDate())} ` +
    `${two(t.getUTCHours())}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())}`
  );
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (year: number, month: number) =>
  month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : MONTH_DAYS[month - 1];

/** the digits of `s` from `at` to `at + n` as a number, or -1 if one is not a digit */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * The instant of a `timestamp with time zone` as PostgreSQL writes it (DateStyle ISO):
 * `YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM]`, the same milliseconds `new Date(text)` reads from it (the
 * fraction truncated to milliseconds). Anything else (another DateStyle, a year outside 1000…9999, BC,
 * infinity, an offset with seconds) is read by `new Date(text)`, as Drizzle reads every one.
 */
export function timestamptzMs(text: string): number {
  return isoStampMs(text) ?? new Date(text).getTime();
}

/** timestamptzMs of the ISO form, or undefined for any other text */
function isoStampMs(text: string): number | undefined {
  const n = text.length;
  if (
    n < 22 ||
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58
  )
    return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  let i = 19;
  let millis = 0;
  if (text.charCodeAt(i) === 46) {
    const start = ++i;
    while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    const count = i - start;
    if (count < 1 || count > 6) return undefined;
    millis = digits(text, start, Math.min(count, 3)) * (count === 1 ? 100 : count === 2 ? 10 : 1);
  }
  const sign = text.charCodeAt(i);
  if (sign !== 43 && sign !== 45) return undefined;
  const offH = digits(text, i + 1, 2);
  let offM = 0;
  if (n === i + 6 && text.charCodeAt(i + 3) === 58) offM = digits(text, i + 4, 2);
  else if (n !== i + 3) return undefined;
  if (offH < 0 || offH > 23 || offM < 0 || offM > 59) return undefined;
  const offset = (sign === 43 ? 1 : -1) * (offH * 60 + offM) * 60_000;
  return Date.UTC(year, month - 1, day, hour, minute, second, millis) - offset;
}

/** Today in the server's time zone, as YYYY-MM-DD. */
export const today = () => formatDateTime(new Date()).slice(0, 10);
