import { EVALUATION_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { evaluationHooks } from './binding';
import { seedEvaluation } from './seed';

/** 评比 on the server: rules, projects that weigh them, scoring and ranking (all endpoints of its resources). */
export const evaluationArea = serverArea(EVALUATION_AREA, {
  hooks: ({ db }) => evaluationHooks(db),
  seed: [['evaluation-v1', seedEvaluation]],
});
