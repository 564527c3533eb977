/**
 * Assistance and care's screens: projects (spend within budget) and care videos (播放) are pages of their
 * own, the rest the generic list page; the overview is a screen of the area.
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
    screens: {
      '/assistance/overview/index': () => import('./OverviewPage'),
    },
  },
);
