/**
 * The custom data scope (type 5): a condition over one field of the target resource, stored as the JSON
 * `{"field","op","value"}` the server evaluates with bound parameters — never SQL text from the browser.
 */
import type { ResourceDef } from '@smart/contracts/core';

export type ConditionOp = 'eq' | 'ne' | 'in';
export const CONDITION_OPS: ConditionOp[] = ['eq', 'ne', 'in'];

export interface Condition {
  field: string;
  op: ConditionOp;
  value: string | string[];
}

/** Values that name the signed-in caller, filled in by the server. */
export const CALLER_VALUES = ['${userId}', '${deptId}'] as const;

/** The fields a custom scope may name: the resource's readable fields (not secrets, not passwords). */
export function scopeFields(def: ResourceDef | undefined) {
  return (def?.fields ?? []).filter((f) => !f.secret && f.type !== 'password');
}

/** A stored condition, or null when it is empty or not a condition. */
export function parseCondition(raw: unknown): Condition | null {
  if (typeof raw !== 'string' || !raw.trim()) return null;
  try {
    const v = JSON.parse(raw) as Partial<Condition>;
    if (!v || typeof v.field !== 'string' || !CONDITION_OPS.includes(v.op as ConditionOp)) return null;
    const value = Array.isArray(v.value) ? v.value.map(String) : v.value === undefined ? '' : String(v.value);
    return { field: v.field, op: v.op as ConditionOp, value };
  } catch {
    return null;
  }
}

/** The value as typed: several values of `in` are comma-separated. */
export function valueText(c: Pick<Condition, 'value'>): string {
  return Array.isArray(c.value) ? c.value.join(',') : c.value;
}

/** The JSON to store for a condition being edited (an `in` value becomes a list). */
export function formatCondition(field: string, op: ConditionOp, text: string): string {
  const value =
    op === 'in'
      ? text
          .split(/[,，]/)
          .map((s) => s.trim())
          .filter(Boolean)
      : text.trim();
  return JSON.stringify({ field, op, value });
}

/** Whether a stored condition is complete and names a field of the resource. */
export function isValidCondition(raw: unknown, def: ResourceDef | undefined): boolean {
  const c = parseCondition(raw);
  if (!c || !scopeFields(def).some((f) => f.name === c.field)) return false;
  return Array.isArray(c.value) ? c.value.length > 0 : c.value !== '';
}
