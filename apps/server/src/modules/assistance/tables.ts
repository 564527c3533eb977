import {
  assistanceProjectResource,
  assistanceReceptionResource,
  assistanceSystemResource,
  assistanceUnitResource,
  careVideoResource,
  informationResource,
} from '@smart/contracts';
import { tableOf } from '../../platform/crud/model';

/**
 * Assistance and care (dfem-hope-manage) tables, derived from their definitions in
 * packages/contracts/src/resource/assistance.ts (platform/crud/model.ts).
 */

export const assistanceUnit = tableOf(assistanceUnitResource);
export const assistanceProject = tableOf(assistanceProjectResource);
export const assistanceSystem = tableOf(assistanceSystemResource);
export const information = tableOf(informationResource);
export const assistanceReception = tableOf(assistanceReceptionResource);
export const careVideo = tableOf(careVideoResource);
