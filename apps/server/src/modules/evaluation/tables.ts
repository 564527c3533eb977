import {
  evaluationListResource,
  evaluationProjectResource,
  evaluationRuleCategoryResource,
  evaluationRuleResource,
} from '@smart/contracts';
import { tableOf } from '../../platform/crud/model';

/**
 * Evaluation (dfem-hope-manage) tables, derived from their definitions in
 * packages/contracts/src/resource/evaluation.ts (platform/crud/model.ts). drizzle-kit writes the migrations.
 */

export const evaluationRuleCategory = tableOf(evaluationRuleCategoryResource);
export const evaluationRule = tableOf(evaluationRuleResource);
export const evaluationProject = tableOf(evaluationProjectResource);
export const evaluationList = tableOf(evaluationListResource);
