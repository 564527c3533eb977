/**
 * What an element says in its extension elements (camunda:/flowable: `in`, `out`, `field`, `property`) and
 * attributes: the action a service-type task runs, the variables a call activity passes.
 */
import { resolve } from '../expressions';
import type { ModdleElement } from './moddle';

/** The service-type tasks: each waits until the service has run its action (never a script). */
export const ACTION_TASKS = new Set([
  'bpmn:ServiceTask',
  'bpmn:SendTask',
  'bpmn:BusinessRuleTask',
  'bpmn:ScriptTask',
]);

/** The extension properties of an element (camunda:/flowable: `in`, `out`, `field`, `property`), read loosely. */
interface Extension {
  $type: string;
  $attrs?: Record<string, string>;
  [k: string]: unknown;
}
const extensionsOf = (behaviour: { extensionElements?: { values?: Extension[] } } | undefined) =>
  behaviour?.extensionElements?.values ?? [];
const localName = (type: string) => (type.split(':').pop() ?? '').toLowerCase();
const attrOf = (e: Extension, name: string) => {
  const v = e[name] ?? e.$attrs?.[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * Copies variables across a call activity by its `in` (into the child) or `out` (back into the caller)
 * mappings, as Camunda and Flowable write them: `source`/`target`, `sourceExpression`, `variables="all"`.
 */
export function mapVariables(
  behaviour: { extensionElements?: { values?: Extension[] } } | undefined,
  direction: 'in' | 'out',
  from: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of extensionsOf(behaviour)) {
    if (localName(e.$type) !== direction) continue;
    if (attrOf(e, 'variables') === 'all') Object.assign(out, from);
    const target = attrOf(e, 'target');
    const source = attrOf(e, 'source');
    const expression = attrOf(e, 'sourceExpression');
    if (target && source !== undefined && source in from) out[target] = from[source];
    else if (target && expression) out[target] = resolve(expression, from);
  }
  return out;
}

/** Where executableXml writes a task's action, so that the engine's saved state keeps it. */
export const ACTION_FIELD = '__action';

/** The action a service-type task names: `flowable:type` / `camunda:type` / `smart:action`, and its fields. */
export function actionOf(
  behaviour: (ModdleElement & { extensionElements?: { values?: Extension[] } }) | undefined,
) {
  const attrs = behaviour?.$attrs ?? {};
  // camunda:type is read by camunda's moddle into `type`; other prefixes stay attributes
  const typed = (behaviour as { type?: unknown } | undefined)?.type;
  let action: string | undefined = typeof typed === 'string' && !typed.includes(':') ? typed : undefined;
  for (const [k, v] of Object.entries(attrs)) if (/^[\w-]+:(type|action)$/.test(k)) action = v;
  const fields: Record<string, string> = {};
  for (const e of extensionsOf(behaviour)) {
    const kind = localName(e.$type);
    if (kind !== 'field' && kind !== 'property') continue;
    const name = attrOf(e, 'name');
    const children = (e.$children ?? []) as { $body?: string }[];
    const value =
      attrOf(e, 'stringValue') ??
      attrOf(e, 'expression') ??
      attrOf(e, 'value') ??
      (typeof e.string === 'string' ? e.string : undefined) ??
      children.map((c) => c.$body ?? '').join('');
    if (name === ACTION_FIELD) action = value;
    else if (name) fields[name] = value;
  }
  return { action, fields };
}
