import {
  tourismBookingResource,
  tourismPresetsResource,
  tourismRouteResource,
  tourismSlotResource,
} from '@smart/contracts';
import { tableOf } from '../../platform/crud/model';

/**
 * 乡村旅游 (dfem-hope-manage) tables, derived from their definitions in
 * packages/contracts/src/resource/tourism.ts (platform/crud/model.ts).
 */

export const tourismPreset = tableOf(tourismPresetsResource);
export const tourismRoute = tableOf(tourismRouteResource);
export const tourismSlot = tableOf(tourismSlotResource);
export const tourismBooking = tableOf(tourismBookingResource);
