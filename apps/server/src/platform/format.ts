/** Date-times on the wire are `YYYY-MM-DD HH:mm:ss` in the server's time zone (api-contract §Identifiers). */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function formatDateTime(
  d: Date | null | undefined,
  timeZone = process.env.TZ || 'Asia/Shanghai',
): string {
  if (!d) return '';
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
  return f.format(d);
}
