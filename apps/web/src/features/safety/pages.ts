/**
 * Safety screens: every route under /safety/ is a definition of SAFETY_AREA (the generic list page), loaded
 * with the first of its screens. The overview and the live video wall are registry pages
 * (features/registry.ts), not definitions; the wall's players (hls.js, mpegts.js) load with its tiles only.
 */
import type { PageFamily } from '../../platform/pages';

export const safetyPages: PageFamily = {
  prefixes: ['/safety/'],
  load: () => import('@smart/contracts/safety').then((m) => m.SAFETY_AREA.resources),
};
