/**
 * Times as the deployment keeps them: every moment on screen is shown in the server's time zone (its `TZ`,
 * from the settings), whatever the browser's zone, and "today" is the deployment's day — a clerk in a
 * browser set to UTC sees the same 14:47 as the row's 创建时间 the server wrote.
 */
import { deploymentZone } from './session/settings';
import { offsetAt, partsIn } from './zone';

export { deploymentZone };

/** A moment as `YYYY-MM-DD HH:mm:ss` (or a part of it) in the deployment's zone. */
export function formatMoment(
  ms: number,
  part: 'dateTime' | 'date' | 'minute' | 'time' | 'monthDay' = 'dateTime',
) {
  const p = partsIn(deploymentZone(), ms);
  switch (part) {
    case 'date':
      return `${p.year}-${p.month}-${p.day}`;
    case 'minute':
      return `${p.month}-${p.day} ${p.hour}:${p.minute}`;
    case 'time':
      return `${p.hour}:${p.minute}`;
    case 'monthDay':
      return `${p.month}-${p.day}`;
    default:
      return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
  }
}

/** The hour of a moment in the deployment's zone (0–23). */
export const hourOf = (ms: number): number => Number(partsIn(deploymentZone(), ms).hour);

/** The start of the deployment's day that holds `ms` (its midnight, as a moment). */
export function dayStart(ms: number = Date.now()): number {
  const zone = deploymentZone();
  const p = partsIn(zone, ms);
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day)) - offsetAt(zone, ms);
}
