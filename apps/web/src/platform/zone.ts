/**
 * Time-zone arithmetic (what 90c7a71 imports from here and did not add): a moment's wall-clock parts in a
 * zone, the zone's offset at a moment, and a wall-clock time of a zone as a moment.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock parts (`year`, `month`, `day`, `hour`, `minute`, `second`, as digits) of `ms` in `zone`. */
export function partsIn(zone: string, ms: number): Record<string, string> {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, f);
  }
  const p: Record<string, string> = {};
  for (const { type, value } of f.formatToParts(ms)) p[type] = value;
  return p;
}

/** How far `zone`'s wall clock is ahead of UTC at `ms`, in milliseconds. */
export function offsetAt(zone: string, ms: number): number {
  const p = partsIn(zone, ms);
  const wall = Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

/** `YYYY-MM-DD HH:mm:ss` in `zone` as epoch milliseconds (NaN when it is no such time). */
export function wallTimeMs(text: string | null | undefined, zone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(text ?? '');
  if (!m) return Number.NaN;
  const asUtc = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0));
  // the zone's offset at that moment (twice: a guess near a change of offset settles on the second pass)
  let at = asUtc;
  for (let k = 0; k < 2; k++) at = asUtc - offsetAt(zone, at);
  return at;
}
