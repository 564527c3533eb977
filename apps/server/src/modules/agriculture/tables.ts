import {
  cooperationResource,
  industryBreedingResource,
  industryOutputValueResource,
  industryResource,
  planDetailResource,
  planResource,
  plantRecordResource,
  plotResource,
  seedlingResource,
} from '@smart/contracts';
import { tableOf } from '../../platform/crud/model';

/**
 * Smart agriculture (dfem-hope-manage) tables, derived from their definitions in
 * packages/contracts/src/resource/agriculture.ts (platform/crud/model.ts). A plan's steps are rows of
 * planDetail; a record's ticked step is the step's `record_id` (no column of the record).
 */

export const plot = tableOf(plotResource);
export const plan = tableOf(planResource);
export const planDetail = tableOf(planDetailResource);
export const plantRecord = tableOf(plantRecordResource);
export const seedling = tableOf(seedlingResource);
export const cooperation = tableOf(cooperationResource);
export const industry = tableOf(industryResource);
export const industryOutputValue = tableOf(industryOutputValueResource);
export const industryBreeding = tableOf(industryBreedingResource);
