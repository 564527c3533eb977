/**
 * Village affairs' screens: every route under /village/ is a definition of VILLAGE_AREA, loaded with the
 * first of its screens. The villagers' screen, the score ranking and the overview are their own pages; the
 * rest get the generic list page.
 */
import { areaPages } from '../../platform/pages';

export const villagePages = areaPages(
  'village',
  () => import('@smart/contracts/village').then((m) => m.VILLAGE_AREA),
  {
    own: {
      villager: () => import('./VillagerPage'),
      scoreRank: () => import('./ScoreRankPage'),
      villageAffairsOverview: () => import('./OverviewPage'),
    },
  },
);
