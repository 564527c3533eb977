/**
 * A service-type task's action (service, send and business-rule tasks), as the server's engine reads it
 * (flow/runtime/extensions.ts `actionOf`, flow/actions.ts `performAction`) and as the designer writes it: `camunda:type="notice"`
 * and one `<camunda:field name="…" stringValue="…"/>` per value. Pure: it reads and builds moddle objects;
 * the properties panel applies what it builds through bpmn-js's modeling (so undo works).
 */
import { checkExpression, checkList, type ExpressionError } from '@smart/contracts/bpmn';
import {
  attrOf,
  type ExtElement,
  type ExtHolder,
  extensionsOf,
  localName,
  type ModdleLike,
  replaceExtensions,
} from './extensions';

/** The registry of actions the server offers (flow/runtime/inspect.ts `ACTION_NAMES`, run by actions.ts). */
export const ACTION_NAMES = ['notice', 'variables', 'http'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

/** The tasks that run an action (a script task is one too on the server, but its script never runs). */
export const SERVICE_TASK_TYPES: readonly string[] = [
  'bpmn:ServiceTask',
  'bpmn:SendTask',
  'bpmn:BusinessRuleTask',
];

/** The fields each action reads (actions.ts); `variables` reads every field as one variable. */
export const ACTION_FIELDS: Record<ActionName, readonly string[]> = {
  notice: ['to', 'title'],
  variables: [],
  http: ['url', 'method', 'body', 'resultVariable'],
};

export const HTTP_METHODS = ['POST', 'GET'] as const;

/** What the applicant wrote at the start: no action may rewrite it (actions.ts `LOCKED`). */
export const LOCKED_VARIABLES: readonly string[] = [
  'applyUser',
  'businessId',
  'taskUser',
  'days',
  'title',
  'content',
];

/** Where the server's executableXml writes a task's action; it wins over the attributes. */
const ACTION_FIELD = '__action';
/** any prefix's `type` / `action` attribute names the action (camunda:type is a typed property instead) */
const ACTION_ATTR = /^[\w-]+:(type|action)$/;
/** what would make the task run a class, a delegate or an expression: never run here, so cleared */
const DELEGATES = ['camunda:class', 'camunda:delegateExpression', 'camunda:expression'];

export interface FieldRow {
  name: string;
  value: string;
}

/** The moddle business object of a service-type task, as far as this module reads it. */
export interface ServiceTaskBo extends ExtHolder {
  $attrs?: Record<string, string>;
  get(name: string): unknown;
}

const isField = (e: ExtElement) => ['field', 'property'].includes(localName(e.$type));

/** A field's value wherever the dialect puts it (the server reads it in this order). */
function fieldValue(e: ExtElement): string {
  const string = e.string;
  return (
    attrOf(e, 'stringValue') ??
    attrOf(e, 'expression') ??
    attrOf(e, 'value') ??
    (typeof string === 'string' ? string : undefined) ??
    (e.$children ?? []).map((c) => c.$body ?? '').join('')
  );
}

/** The action the task names and its fields in file order, read as the server reads them. */
export function actionOf(bo: ServiceTaskBo): { action?: string; fields: FieldRow[] } {
  const typed = bo.get('camunda:type');
  let action = typeof typed === 'string' && typed && !typed.includes(':') ? typed : undefined;
  for (const [k, v] of Object.entries(bo.$attrs ?? {})) if (ACTION_ATTR.test(k)) action = v;
  const fields: FieldRow[] = [];
  for (const e of extensionsOf(bo)) {
    if (!isField(e)) continue;
    const name = attrOf(e, 'name') ?? '';
    if (name === ACTION_FIELD) action = fieldValue(e);
    else fields.push({ name, value: fieldValue(e) });
  }
  return { action, fields };
}

/** The value of the field `name` ('' when the task has none). */
export const fieldOf = (fields: FieldRow[], name: string) => fields.find((f) => f.name === name)?.value ?? '';

/** `fields` with `name` set to `value` (an empty value removes the field). */
export function withField(fields: FieldRow[], name: string, value: string): FieldRow[] {
  const rest = fields.filter((f) => f.name !== name);
  if (!value) return rest;
  const at = fields.findIndex((f) => f.name === name);
  const out = [...rest];
  out.splice(at < 0 ? out.length : at, 0, { name, value });
  return out;
}

/** The `extensionElements` that hold exactly `fields` (other extensions of the task are kept). */
export function fieldsUpdate(moddle: ModdleLike, bo: ServiceTaskBo, fields: FieldRow[]) {
  const created = fields.map(
    (f) => moddle.create('camunda:Field', { name: f.name, stringValue: f.value }) as ExtElement,
  );
  return {
    extensionElements: replaceExtensions(
      moddle,
      bo,
      (e) => isField(e) && attrOf(e, 'name') !== ACTION_FIELD,
      created,
    ),
  };
}

/**
 * The properties that make the task run `action` (none: no action), the way the server reads it: a
 * camunda:type, no other prefix's type/action attribute or action field to override it, no class or
 * delegate; the fields the new action reads are kept, the others dropped.
 */
export function actionUpdate(moddle: ModdleLike, bo: ServiceTaskBo, action: ActionName | undefined) {
  const { fields } = actionOf(bo);
  const keep =
    action && action !== 'variables' ? fields.filter((f) => ACTION_FIELDS[action].includes(f.name)) : [];
  const props: Record<string, unknown> = { 'camunda:type': action };
  for (const k of Object.keys(bo.$attrs ?? {})) if (ACTION_ATTR.test(k)) props[k] = undefined;
  for (const k of DELEGATES) if (bo.get(k) !== undefined) props[k] = undefined;
  const created = keep.map(
    (f) => moddle.create('camunda:Field', { name: f.name, stringValue: f.value }) as ExtElement,
  );
  props.extensionElements = replaceExtensions(moddle, bo, isField, created);
  return props;
}

/** What is wrong with a value the panel shows beside its field. */
export type ValueProblem =
  | { kind: 'required' }
  | { kind: 'url' }
  | { kind: 'identifier' }
  | { kind: 'locked'; name: string }
  | { kind: 'duplicate'; name: string }
  | { kind: 'expression'; error: ExpressionError };

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const expression = (error: ExpressionError | null): ValueProblem | null =>
  error ? { kind: 'expression', error } : null;

/** A value is an expression when it starts with `${` (the server resolves it whole), else plain text. */
export function checkValue(value: string): ValueProblem | null {
  return value.trim().startsWith('${') ? expression(checkExpression(value)) : null;
}

/** A variable the action writes: a name, not one the applicant wrote. */
export function checkVariableName(name: string): ValueProblem | null {
  const n = name.trim();
  if (!n) return { kind: 'required' };
  if (!IDENTIFIER.test(n)) return { kind: 'identifier' };
  if (LOCKED_VARIABLES.includes(n)) return { kind: 'locked', name: n };
  return null;
}

/** The recipients of a notice: user ids or `${…}`, comma separated; at least one. */
export function checkRecipients(to: string): ValueProblem | null {
  if (!to.trim()) return { kind: 'required' };
  return expression(checkList(to));
}

/** The address an `http` action calls: `http(s)://…` or an expression. */
export function checkUrl(url: string): ValueProblem | null {
  const u = url.trim();
  if (!u) return { kind: 'required' };
  if (u.startsWith('${')) return expression(checkExpression(u));
  return /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(u) ? null : { kind: 'url' };
}

/** The variable an `http` action's status goes into (empty: httpStatus). */
export function checkResultVariable(name: string): ValueProblem | null {
  return name.trim() ? checkVariableName(name) : null;
}

/** For each row of a `variables` action, what is wrong with its name and its value. */
export function checkVariables(
  rows: FieldRow[],
): { name: ValueProblem | null; value: ValueProblem | null }[] {
  const seen = new Set<string>();
  return rows.map((row) => {
    const n = row.name.trim();
    let name = checkVariableName(row.name);
    if (!name && seen.has(n)) name = { kind: 'duplicate', name: n };
    seen.add(n);
    return { name, value: checkValue(row.value) };
  });
}

/** The first problem of a task's action that would stop it running: for the check before saving. */
export function actionProblem(bo: ServiceTaskBo): ValueProblem | null {
  const { action, fields } = actionOf(bo);
  const value = (name: string) => fieldOf(fields, name);
  if (action === 'notice') return checkRecipients(value('to')) ?? checkValue(value('title'));
  if (action === 'http')
    return (
      checkUrl(value('url')) ?? checkValue(value('body')) ?? checkResultVariable(value('resultVariable'))
    );
  if (action === 'variables')
    for (const p of checkVariables(fields)) if (p.name ?? p.value) return p.name ?? p.value;
  return null;
}
