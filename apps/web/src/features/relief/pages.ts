/**
 * Poverty relief screens: every route under /relief/ is a definition of RELIEF_AREA, loaded with the first
 * of its screens; the monitored households' screen adds the clocks, the identification and risk removal,
 * and the households still without a measure. The overview is a registry page (features/registry.ts).
 */
import type { PageFamily } from '../../platform/pages';

export const reliefPages: PageFamily = {
  prefixes: ['/relief/'],
  load: () => import('@smart/contracts/relief').then((m) => m.RELIEF_AREA.resources),
  own: {
    preventionPoverty: () => import('./MonitorPage'),
  },
};
