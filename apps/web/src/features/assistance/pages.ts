/**
 * Assistance and care's screens: projects (spend within budget) and care videos (播放) are pages of their
 * own, the rest the generic list page; the overview is the area's declaration, drawn by the one overview page.
 */
import { areaPages } from '../../platform/pages';

export const assistancePages = areaPages(
  'assistance',
  () => import('@smart/contracts/assistance').then((m) => m.ASSISTANCE_AREA),
  {
    own: {
      assistanceProject: () => import('./ProjectPage'),
      careVideo: () => import('./CareVideoPage'),
    },
  },
);
