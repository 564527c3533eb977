import {
  cameraResource,
  cameraWatchLogResource,
  securityIncidentResource,
  securityOverviewResource,
  securityPrincipalResource,
} from '@smart/contracts';
import { tableOf } from '../../platform/crud/model';

/**
 * Safety (dfem-hope-manage) tables, derived from their definitions in
 * packages/contracts/src/resource/safety.ts (platform/crud/model.ts).
 */

export const securityPrincipal = tableOf(securityPrincipalResource);
export const camera = tableOf(cameraResource);
export const securityIncident = tableOf(securityIncidentResource);
export const securityOverview = tableOf(securityOverviewResource);
export const cameraWatchLog = tableOf(cameraWatchLogResource);
