/**
 * What the engine keeps in an environment beside the instance's variables: the start event a run begins at
 * (ENTRY), a multi-instance iteration's element variable and loopCounter (ITERATION), the message that
 * started a scope; and the variables an element reads from the iterations it runs in.
 */
import type { ModdleElement } from './moddle';

/** The variable of a run naming the start event it begins at (a message's, a signal's or a timer's). */
export const ENTRY = '__start';
/** Where a multi-instance sub-process's iteration keeps its element variable and loopCounter (see loadElements). */
export const ITERATION = '__iteration';
/** What the engine keeps beside the instance's variables in an environment: the message that started a scope. */
const ENGINE_KEYS = new Set(['fields', 'content', 'properties', ITERATION, ENTRY]);
/** An environment's variables without what the engine and loadElements keep there. */
export function processVariablesOf(variables: Record<string, unknown> | undefined) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(variables ?? {})) if (!ENGINE_KEYS.has(k)) out[k] = v;
  return out;
}

/**
 * The variables of the iterations an element runs in: its multi-instance sub-processes' (element variable and
 * loopCounter, innermost winning), then its own when it is an iteration itself (a countersign's task, a
 * multi-instance call activity's call).
 */
export function iterationOf(api: {
  owner?: { behaviour?: ModdleElement };
  content?: object;
  environment: { variables: Record<string, unknown> };
}): Record<string, unknown> {
  const outer = (api.environment.variables?.[ITERATION] ?? {}) as Record<string, unknown>;
  const content = (api.content ?? {}) as Record<string, unknown>;
  if (!content.isMultiInstance) return { ...outer };
  const loop = api.owner?.behaviour?.loopCharacteristics as
    | { behaviour?: { elementVariable?: string; collection?: string } }
    | undefined;
  const element = loop?.behaviour?.elementVariable ?? 'item';
  return {
    ...outer,
    ...(loop?.behaviour?.collection ? { [element]: content[element] } : {}),
    loopCounter: content.index,
  };
}
