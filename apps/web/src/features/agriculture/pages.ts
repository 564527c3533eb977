/**
 * Smart-agriculture screens: every route under /agriculture/ is a definition of AGRICULTURE_AREA (or the
 * plan steps, which have no menu), loaded with the first of its screens; the plots' screen adds the map
 * and a plot's history, the plans' screen the steps editor. The overview is a registry page
 * (features/registry.ts). The telemetry core's device and monitoring screens join this family.
 */
import type { PageFamily } from '../../platform/pages';

export const agriculturePages: PageFamily = {
  prefixes: ['/agriculture/'],
  load: () => import('@smart/contracts/agriculture').then((m) => m.AGRICULTURE_RESOURCES),
  own: {
    plot: () => import('./PlotPage'),
    plan: () => import('./PlanPage'),
  },
};
