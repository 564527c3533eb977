import { type AreaDef, areaResources, type ResourceDef } from '@smart/contracts/core';
import type { ComponentType } from 'react';

/** A screen's module, loaded when its route is first opened (one chunk per page). */
export type PageModule = { default: ComponentType };
export type PageLoader = () => Promise<PageModule>;

/**
 * The screens of one group of resource definitions (an area, or the platform's own), known by their route
 * prefixes only: the definitions load with the first of these screens (`@smart/contracts/<area>` in a lazy
 * chunk), never with the shell or /login. `<prefix>…/index` is a definition's page when one of the loaded
 * definitions has that route; any other path under the prefixes is not found.
 */
export interface PageFamily {
  /** route prefixes of the group's screens, each ending in '/' (an area's is `/<code>/`) */
  prefixes: readonly string[];
  /** the group's definitions (a dynamic import of its contracts module) */
  load: () => Promise<readonly ResourceDef[]>;
  /** screens of their own, by definition key; the others get the generic list page */
  own?: Readonly<Record<string, PageLoader>>;
  /** the group's screens that are no definition's list (an overview, a monitor), by page path (`<path>/index`) */
  screens?: Readonly<Record<string, PageLoader>>;
  /** an area's declaration (its overview is drawn by the one overview page) */
  area?: () => Promise<AreaDef>;
}

/**
 * A business area's pages (`features/areas.ts` lists them): its screens live under `/<code>/`, its
 * definitions are its area's with their children (`areaResources`), loaded from its contracts module with
 * the first of them; `own` and `screens` as on any family.
 */
export function areaPages(
  code: string,
  area: () => Promise<AreaDef>,
  parts: Pick<PageFamily, 'own' | 'screens'> = {},
): PageFamily {
  return { prefixes: [`/${code}/`], load: () => area().then(areaResources), area, ...parts };
}
