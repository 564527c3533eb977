/**
 * Evaluation screens: every route under /evaluation/ is a definition of EVALUATION_AREA, loaded with the
 * first of its screens. The scoring screen is the lists' own, the projects' page picks rules and weights row by row; the rest get the generic list page. The
 * overview is a registry line of its own (features/registry.ts).
 */
import type { PageFamily } from '../../platform/pages';

export const evaluationPages: PageFamily = {
  prefixes: ['/evaluation/'],
  load: () => import('@smart/contracts/evaluation').then((m) => m.EVALUATION_AREA.resources),
  own: {
    evaluationList: () => import('./ScoringPage'),
    evaluationProject: () => import('./ProjectPage'),
  },
};
