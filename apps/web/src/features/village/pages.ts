/** Village affairs routes → lazy pages: a few screens of their own, the generic list page for the rest. */
import { VILLAGE_RESOURCES } from '@smart/contracts';
import type { PageLoader } from '../registry';

const OWN: Record<string, PageLoader> = {
  villager: () => import('./VillagerPage'),
  scoreRank: () => import('./ScoreRankPage'),
  villageAffairsOverview: () => import('./OverviewPage'),
};

export function villagePageLoaders(): Record<string, PageLoader> {
  const loaders: Record<string, PageLoader> = {};
  for (const def of VILLAGE_RESOURCES)
    loaders[`${def.route}/index`] =
      OWN[def.key] ??
      (() => import('../../platform/crud/CrudPage').then(({ pageOf }) => ({ default: pageOf(def) })));
  return loaders;
}
