import { EVALUATION_AREA, PROJECT_STATUS } from '@smart/contracts';
import { eq } from 'drizzle-orm';
import { serverArea } from '../../platform/area';
import { evaluationHooks } from './binding';
import { seedEvaluation } from './seed';

/** 评比 on the server: rules, projects that weigh them, scoring and ranking (all endpoints of its resources). */
export const evaluationArea = serverArea(EVALUATION_AREA, {
  hooks: ({ db }) => evaluationHooks(db),
  home: { evaluating: (m) => eq(m.cols.projectStatus, PROJECT_STATUS.inProgress) },
  seed: [['evaluation-v1', seedEvaluation]],
});
