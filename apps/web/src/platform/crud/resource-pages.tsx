import { RESOURCES } from '@smart/contracts';
import type { PageLoader } from '../pages';

/** Every registry resource's screen is the generic list page: its route (with /index) maps to it. */
export function resourcePageLoaders(): Record<string, PageLoader> {
  const loaders: Record<string, PageLoader> = {};
  for (const def of RESOURCES) {
    loaders[`${def.route}/index`] = () =>
      import('./CrudPage').then(({ pageOf }) => ({ default: pageOf(def) }));
  }
  return loaders;
}
