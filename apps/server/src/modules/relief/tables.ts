import {
  benefitingPolicyResource,
  preventionPovertyResource,
  reliefIncomeLineResource,
  reliefResponsibleResource,
  resettlementSiteResource,
  supportingMeasuresResource,
} from '@smart/contracts';
import { tableOf } from '../../platform/crud/model';

/**
 * Poverty relief (dfem-hope-manage) tables, derived from their definitions in
 * packages/contracts/src/resource/relief.ts (platform/crud/model.ts).
 */

export const preventionPoverty = tableOf(preventionPovertyResource);
export const supportingMeasures = tableOf(supportingMeasuresResource);
export const benefitingPolicy = tableOf(benefitingPolicyResource);
export const resettlementSite = tableOf(resettlementSiteResource);
export const reliefResponsible = tableOf(reliefResponsibleResource);
export const reliefIncomeLine = tableOf(reliefIncomeLineResource);
