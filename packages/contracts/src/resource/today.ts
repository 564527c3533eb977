import { DEFAULT_TIME_ZONE } from '../constants';

/**
 * "Today" as the deployment counts it: the day in its time zone (the server's `TZ`), whichever end asks and
 * whatever the browser's own zone. The rules both ends run (`notAfterToday`) and the date pickers read it.
 * The server's zone is its `TZ`; the web hands over the zone the settings name (`readDeploymentZoneFrom`).
 */

const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
let zoneOf: () => string = () => env?.TZ || DEFAULT_TIME_ZONE;

/** Where the deployment's zone is read from (the web: its settings, once they have arrived). */
export function readDeploymentZoneFrom(read: () => string): void {
  zoneOf = read;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The day (`YYYY-MM-DD`) a moment falls on in the deployment's zone: today, unless `ms` says otherwise. */
export function deploymentDay(ms: number = Date.now(), zone: string = zoneOf()): string {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formats.set(zone, f);
  }
  const p: Record<string, string> = {};
  for (const { type, value } of f.formatToParts(ms)) p[type] = value;
  return `${p.year}-${p.month}-${p.day}`;
}
