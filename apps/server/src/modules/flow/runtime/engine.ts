/**
 * Making engines: bpmn-engine, loaded with the first process that runs, with what runs here instead of its
 * defaults (no scripts, the safe expressions, the element patches, durable timers, quiet loggers); and each
 * diagram's source context, read once and shared by every engine of its instances.
 */
import { engineExpressions } from '../expressions';
import { loadElements } from './elements';
import { moddleOptions } from './moddle';
import { executableXml } from './normalize';
import { durableTimers } from './timers';

/**
 * Scripts never run here: bpmn-engine's default runs JavaScript with node:vm, which is no sandbox. Script
 * tasks and script conditions are refused at deployment; this makes sure nothing slips through anyway.
 */
const noScripts = {
  register() {},
  getScript() {
    return undefined;
  },
};

let engineModule: Promise<typeof import('bpmn-engine')> | undefined;

/** bpmn-engine, loaded with the first process that runs: most starts of the server run none */
const loadEngine = () => {
  engineModule ??= import('bpmn-engine');
  return engineModule;
};

/**
 * bpmn-engine's loggers print only under DEBUG=bpmn-engine:*, yet its default makes three `debug` loggers
 * for the engine and for every element of every run (each asking whether stderr is a terminal): without
 * DEBUG they are these that do nothing.
 */
const quiet = () => {};
const QUIET_LOGGER = () => ({ debug: quiet, error: quiet, warn: quiet });

/** An engine for one run; `processVariables` are the instance's variables (engineExpressions). */
export async function newEngine(options: Record<string, unknown>, processVariables: Record<string, unknown>) {
  const { Engine } = await loadEngine();
  const timers = durableTimers();
  const engine = new Engine({
    moddleOptions,
    expressions: engineExpressions(processVariables),
    scripts: noScripts,
    elements: await loadElements(),
    timers,
    ...(process.env.DEBUG ? {} : { Logger: QUIET_LOGGER }),
    ...options,
  } as never);
  return { engine, timers };
}

/** bpmn-engine's reading of a diagram (moddle-context-serializer's context): what its definitions run from */
interface SourceContext {
  id: string;
  serialize(): string;
}

/**
 * The engine's reading of each executable diagram, made once: parsing the XML and mapping it for the engine
 * was a tenth of a start's work, and the mapped diagram went into every saved state (a third of its size,
 * parsed and written again at every step). Every engine of the diagram's instances starts from this one
 * context (bpmn-engine's `sourceContext`; the engine only reads it), and a saved state leaves it out: the
 * recovery takes it from here (a state saved with its `source` still recovers from that).
 */
const sources = new Map<string, Promise<SourceContext>>();
export function sourceOf(xml: string): Promise<SourceContext> {
  let hit = sources.get(xml);
  if (!hit) {
    hit = (async () => {
      const { engine } = await newEngine({ source: await executableXml(xml) }, {});
      const [definition] = (await engine.getDefinitions()) as unknown as {
        environment: { options: { source: SourceContext } };
      }[];
      const context = definition.environment.options.source;
      // never changes: what getState writes of it (then leaves out, see stateToSave) is made once
      const text = context.serialize();
      context.serialize = () => text;
      return context;
    })();
    if (sources.size >= 100) sources.delete(sources.keys().next().value as string);
    sources.set(xml, hit);
    hit.catch(() => sources.delete(xml));
  }
  return hit;
}

/** The engine's state as saved: without the diagram each definition runs from (sourceOf gives it back). */
export function stateToSave(state: { definitions?: { source?: unknown }[] }): string {
  for (const d of state.definitions ?? []) delete d.source;
  return JSON.stringify(state);
}
