/** Pure value helpers of the field kinds (no React): what is empty, comma lists, dates and switches on the wire. */
import type { FieldDef } from '@smart/contracts/core';
import type { Dayjs } from 'dayjs';

/** Nothing to show or send: undefined, null, '' or an empty list. */
export const isEmptyValue = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** A comma-joined list (ids, dictionary keys, image paths) or an array → its non-empty items. */
export function splitList(v: unknown): string[] {
  if (isEmptyValue(v)) return [];
  const items = Array.isArray(v) ? v.map(String) : String(v).split(',');
  return items.map((s) => s.trim()).filter(Boolean);
}

export function formatForWire(f: Pick<FieldDef, 'type'>, v: Dayjs): string {
  return v.format(f.type === 'date' ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH:mm:ss');
}

/** A switch's value (1 / '1' / true) is on. */
export const isOn = (v: unknown): boolean => v === true || Number(v) === 1;

/** A switch of the add / edit form (on / off) → 1 / 0 on the wire. */
export const switchToWire = (v: unknown): 0 | 1 => (isOn(v) ? 1 : 0);

/**
 * The switch search filter (是 / 否 / 全部) → the query value: 是 sends 1, 否 sends 0, 全部 (empty) nothing.
 * A switch filter can say 否: its choice is a string, never a boolean that an empty form would also give.
 */
export function switchFilterToWire(v: unknown): '' | 0 | 1 {
  if (v === true || v === 1 || v === '1') return 1;
  if (v === false || v === 0 || v === '0') return 0;
  return '';
}
