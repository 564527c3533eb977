/**
 * Evaluation screens: the scoring screen is the lists' own, the projects' page picks rules and weights row
 * by row; the rest get the generic list page. The overview is a screen of the area.
 */
import { areaPages } from '../../platform/pages';

export const evaluationPages = areaPages(
  'evaluation',
  () => import('@smart/contracts/evaluation').then((m) => m.EVALUATION_AREA),
  {
    own: {
      evaluationList: () => import('./ScoringPage'),
      evaluationProject: () => import('./ProjectPage'),
    },
    screens: {
      '/evaluation/overview/index': () => import('./OverviewPage'),
    },
  },
);
