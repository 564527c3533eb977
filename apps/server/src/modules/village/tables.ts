import {
  duplexChargeResource,
  evaluationTaskResource,
  filingRecordsResource,
  guaranteeGroupResource,
  policyToPeopleResource,
  scoreRankResource,
  scoreRankRuleResource,
  securityChargeResource,
  vehicleResource,
  villageAffairsDutyResource,
  villageAffairsOverviewResource,
  villageReviewResource,
  villageRuleResource,
  villagerIncomeResource,
  villagerResource,
  villagerToCadreResource,
  villagerToGroupResource,
  villagerToOrgResource,
  visitingReceptionResource,
  visitingRecordsResource,
} from '@smart/contracts';
import { tableOf } from '../../platform/crud/model';

/**
 * Village affairs (dfem-hope-manage) tables, derived from their definitions in
 * packages/contracts/src/resource/village.ts (platform/crud/model.ts): property names = field names, the
 * column and indexes follow from each field's kind and use. drizzle-kit writes the migrations from these.
 */

export const villager = tableOf(villagerResource);
export const villagerToCadre = tableOf(villagerToCadreResource);
export const villagerToOrg = tableOf(villagerToOrgResource);
export const villagerToGroup = tableOf(villagerToGroupResource);
export const villageAffairsDuty = tableOf(villageAffairsDutyResource);
export const evaluationTask = tableOf(evaluationTaskResource);
export const scoreRankRule = tableOf(scoreRankRuleResource);
export const scoreRank = tableOf(scoreRankResource);
export const policyToPeople = tableOf(policyToPeopleResource);
export const vehicle = tableOf(vehicleResource);
export const filingRecords = tableOf(filingRecordsResource);
export const villageRule = tableOf(villageRuleResource);
export const villageReview = tableOf(villageReviewResource);
export const guaranteeGroup = tableOf(guaranteeGroupResource);
export const duplexCharge = tableOf(duplexChargeResource);
export const securityCharge = tableOf(securityChargeResource);
export const villagerIncome = tableOf(villagerIncomeResource);
export const visitingRecords = tableOf(visitingRecordsResource);
export const visitingReception = tableOf(visitingReceptionResource);
export const villageAffairsOverview = tableOf(villageAffairsOverviewResource);
