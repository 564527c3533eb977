/**
 * Safety's screens: every definition gets the generic list page; the live video wall is a screen of the area,
 * the overview its declaration drawn by the one overview page.
 */
import { areaPages } from '../../platform/pages';

export const safetyPages = areaPages(
  'safety',
  () => import('@smart/contracts/safety').then((m) => m.SAFETY_AREA),
  {
    screens: {
      // the live video wall: its players load with it, never before
      '/safety/wall/index': () => import('./WallPage'),
    },
  },
);
