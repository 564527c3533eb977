/**
 * Safety's screens: every definition gets the generic list page; the overview and the live video wall are
 * screens of the area.
 */
import { areaPages } from '../../platform/pages';

export const safetyPages = areaPages(
  'safety',
  () => import('@smart/contracts/safety').then((m) => m.SAFETY_AREA),
  {
    screens: {
      '/safety/overview/index': () => import('./OverviewPage'),
      // the live video wall: its players load with it, never before
      '/safety/wall/index': () => import('./WallPage'),
    },
  },
);
