/**
 * Village affairs screens: every route under /village/ is a definition of VILLAGE_AREA, loaded with the
 * first of its screens (the definitions never ship with the shell). A few have screens of their own; the
 * rest get the generic list page.
 */
import type { PageFamily } from '../../platform/pages';

export const villagePages: PageFamily = {
  prefixes: ['/village/'],
  load: () => import('@smart/contracts/village').then((m) => m.VILLAGE_AREA.resources),
  own: {
    villager: () => import('./VillagerPage'),
    scoreRank: () => import('./ScoreRankPage'),
    villageAffairsOverview: () => import('./OverviewPage'),
  },
};
