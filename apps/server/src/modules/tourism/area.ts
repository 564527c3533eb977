import { TOURISM_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { tourismHooks } from './hooks';
import { seedTourism } from './seed';

/** 乡村旅游 on the server: places, routes, slots and bookings (hooks.ts), and the demo (seed.ts). */
export const tourismArea = serverArea(TOURISM_AREA, {
  hooks: ({ db }) => tourismHooks(db),
  seed: [['tourism-v1', seedTourism]],
});
