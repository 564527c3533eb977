/**
 * Assistance and care's screens: care videos (播放) are a page of their own, the rest the generic list page
 * (a project's spend within its budget is its definition's `notAbove`, its progress a declared `percent`
 * drawn as a bar); the overview is the area's declaration, drawn by the one overview page.
 */
import { areaPages } from '../../platform/pages';

export const assistancePages = areaPages(
  'assistance',
  () => import('@smart/contracts/assistance').then((m) => m.ASSISTANCE_AREA),
  {
    own: {
      careVideo: () => import('./CareVideoPage'),
    },
  },
);
