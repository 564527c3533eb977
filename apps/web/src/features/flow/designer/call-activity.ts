/**
 * A call activity's variable mappings, as the server's engine reads them (flow/runtime/variables.ts `mapVariables`):
 * `in` copies the caller's variables into the child when it starts, `out` copies the child's back when it
 * ends; each `<camunda:in|out>` is `variables="all"`, or a `target` filled from a `source` variable or a
 * `sourceExpression`. The designer writes `<camunda:in source="a" target="b"/>`, `sourceExpression` when
 * the source is written `${…}`, and `<camunda:in variables="all"/>`.
 */
import { checkExpression } from '@smart/contracts/bpmn';
import {
  attrOf,
  type ExtElement,
  type ExtHolder,
  extensionsOf,
  localName,
  type ModdleLike,
  replaceExtensions,
} from './extensions';
import { checkVariableName, type ValueProblem } from './service-task';

export type Direction = 'in' | 'out';

export interface Mapping {
  /** a variable name, or `${…}` (written as sourceExpression) */
  source: string;
  target: string;
}

export interface Mappings {
  /** every variable is copied (before the single mappings, which may rename some) */
  all: boolean;
  items: Mapping[];
}

/** The mappings of one direction, in file order. */
export function mappingsOf(bo: ExtHolder, direction: Direction): Mappings {
  const out: Mappings = { all: false, items: [] };
  for (const e of extensionsOf(bo)) {
    if (localName(e.$type) !== direction) continue;
    if (attrOf(e, 'variables') === 'all') out.all = true;
    const source = attrOf(e, 'source') ?? attrOf(e, 'sourceExpression');
    const target = attrOf(e, 'target');
    if (source !== undefined || target !== undefined)
      out.items.push({ source: source ?? '', target: target ?? '' });
  }
  return out;
}

/** The `extensionElements` with `mappings` as the one direction's (the other direction's and the rest kept). */
export function mappingsUpdate(moddle: ModdleLike, bo: ExtHolder, direction: Direction, mappings: Mappings) {
  const type = direction === 'in' ? 'camunda:In' : 'camunda:Out';
  const created: ExtElement[] = [];
  if (mappings.all) created.push(moddle.create(type, { variables: 'all' }) as ExtElement);
  for (const m of mappings.items) {
    const expression = m.source.trim().startsWith('${');
    created.push(
      moddle.create(type, {
        ...(expression ? { sourceExpression: m.source } : { source: m.source }),
        target: m.target,
      }) as ExtElement,
    );
  }
  return {
    extensionElements: replaceExtensions(moddle, bo, (e) => localName(e.$type) === direction, created),
  };
}

/** For each mapping, what is wrong with its source and its target. */
export function checkMappings(
  items: Mapping[],
): { source: ValueProblem | null; target: ValueProblem | null }[] {
  return items.map((m) => {
    const s = m.source.trim();
    let source: ValueProblem | null = null;
    if (!s) source = { kind: 'required' };
    else if (s.startsWith('${')) {
      const error = checkExpression(s);
      if (error) source = { kind: 'expression', error };
    } else if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) source = { kind: 'identifier' };
    const t = m.target.trim();
    // a mapping into the child may set what a start form would (the child is a new instance)
    const target = !t
      ? { kind: 'required' as const }
      : checkVariableName(t)?.kind === 'identifier'
        ? { kind: 'identifier' as const }
        : null;
    return { source, target };
  });
}

/** The key a call activity calls; required by the server. */
export function checkCalledElement(key: string): ValueProblem | null {
  const k = key.trim();
  if (!k) return { kind: 'required' };
  if (k.startsWith('${')) {
    const error = checkExpression(k);
    return error ? { kind: 'expression', error } : null;
  }
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(k) ? null : { kind: 'identifier' };
}
