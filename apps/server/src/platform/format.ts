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
/** zone offsets by quarter hour; only buckets without a transition inside are kept */
const offsets = new Map<string, number>();

/**
 * Intl formats a date in microseconds; the list pages format thousands a second. The offset is read from
 * Intl once per zone and quarter hour (when it is the same at both ends of it) and the rest is arithmetic.
 */
export function formatDateTime(
  d: Date | null | undefined,
  timeZone = process.env.TZ || 'Asia/Shanghai',
): string {
  if (!d) return '';
  const ms = d.getTime();
  if (!Number.isFinite(ms)) return '';
  const bucket = Math.floor(ms / BUCKET_MS);
  const key = `${timeZone}|${bucket}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const first = offsetAt(timeZone, bucket * BUCKET_MS);
    const last = offsetAt(timeZone, (bucket + 1) * BUCKET_MS - 1000);
    if (first !== last) return formatterOf(timeZone).format(d);
    if (offsets.size >= 50_000) offsets.clear();
    offsets.set(key, first);
    offset = first;
  }
  const t = new Date(ms + offset);
  const year = t.getUTCFullYear();
  if (year < 1000 || year > 9999) return formatterOf(timeZone).format(d);
  return (
    `${year}-${two(t.getUTCMonth() + 1)}-${two(t.getUTCDate())} ` +
    `${two(t.getUTCHours())}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())}`
  );
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));
