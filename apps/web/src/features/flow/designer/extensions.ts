/**
 * Extension elements (`<bpmn:extensionElements>`: camunda:/flowable: `field`, `property`, `in`, `out` …) read
 * loosely, the way the server's engine reads them (flow/runtime/extensions.ts `extensionsOf`, `attrOf`), and replaced the
 * way the designer writes them: a new `extensionElements` holding what it keeps and what it adds.
 */

/** An extension element as the moddle reads it: typed properties, unknown attributes, child elements. */
export interface ExtElement {
  $type: string;
  $attrs?: Record<string, string>;
  $children?: { $body?: string }[];
  $parent?: unknown;
  [k: string]: unknown;
}

export interface ExtHolder {
  extensionElements?: { values?: ExtElement[] };
}

export interface ModdleLike {
  create(type: string, attrs?: Record<string, unknown>): unknown;
}

export const extensionsOf = (bo: ExtHolder | undefined): ExtElement[] => bo?.extensionElements?.values ?? [];

/** `camunda:Field` → `field`, `flowable:in` → `in` (the server compares local names in lower case). */
export const localName = (type: string) => (type.split(':').pop() ?? '').toLowerCase();

/** A property or an unknown attribute of an extension element, when it is a string. */
export function attrOf(e: ExtElement, name: string): string | undefined {
  const v = e[name] ?? e.$attrs?.[name];
  return typeof v === 'string' ? v : undefined;
}

/**
 * The `extensionElements` of `bo` without the values `drop` picks and with `add` after the others;
 * undefined when nothing is left (the element then writes none).
 */
export function replaceExtensions(
  moddle: ModdleLike,
  bo: ExtHolder,
  drop: (e: ExtElement) => boolean,
  add: ExtElement[],
): ExtHolder['extensionElements'] {
  const values = [...extensionsOf(bo).filter((e) => !drop(e)), ...add];
  if (!values.length) return undefined;
  const ext = moddle.create('bpmn:ExtensionElements', { values }) as { values: ExtElement[] };
  for (const v of add) v.$parent = ext;
  return ext;
}
