/**
 * Definition-driven screens, loaded lazily: a page family names route prefixes and how to load its
 * definitions; the definitions arrive with the first of their screens, then the screen's own page or the
 * generic list page (CrudPage) is loaded for the one whose route matches.
 */
import type { ResourceDef } from '@smart/contracts/core';
import type { PageFamily, PageModule } from '../pages';

/** The definitions loaded so far, by key: reference pickers find their target here first. */
const loaded = new Map<string, ResourceDef>();

function remember(defs: readonly ResourceDef[]): void {
  for (const def of defs) loaded.set(def.key, def);
}

/** Whether `path` is one of the family's screen paths (`<prefix>…/index`). */
export function inFamily(family: PageFamily, path: string): boolean {
  return path.endsWith('/index') && family.prefixes.some((p) => path.startsWith(p));
}

/** The definition whose screen is at `path` (its route + `/index`), once the family's definitions loaded. */
export async function familyDefinition(family: PageFamily, path: string): Promise<ResourceDef | null> {
  const defs = await family.load();
  remember(defs);
  return defs.find((def) => `${def.route}/index` === path) ?? null;
}

/** The page at `path`: the definition's own screen or its generic list page; null when none has that route. */
export async function familyPage(family: PageFamily, path: string): Promise<PageModule | null> {
  // an area's overview: its declaration drawn by the one overview page
  const area = await family.area?.();
  if (area?.overview && `${area.overview.path}/index` === path) {
    const { overviewPage } = await import('../charts/OverviewPage');
    return overviewPage(area.overview);
  }
  // the list page comes with the definitions, not after them: one round trip (own screens use it too)
  const [def, { pageOf }] = await Promise.all([familyDefinition(family, path), import('./CrudPage')]);
  if (!def) return null;
  const own = family.own?.[def.key];
  return own ? own() : { default: pageOf(def) };
}

/**
 * A definition by key, for a `ref` field's picker: from the definitions already loaded (the page's own area),
 * else from the registry of every definition, loaded on demand.
 */
export async function definitionByKey(key: string): Promise<ResourceDef | null> {
  const known = loaded.get(key);
  if (known) return known;
  const { resourceByKey } = await import('@smart/contracts/registry');
  return resourceByKey.get(key) ?? null;
}

/** The definition of `key` if it is already loaded (no waiting). */
export const loadedDefinition = (key: string): ResourceDef | undefined => loaded.get(key);
