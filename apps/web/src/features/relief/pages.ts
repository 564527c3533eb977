/**
 * Poverty relief's screens: the monitored households' page (with identification and its clocks); the rest
 * the generic list page; the overview is the area's declaration, drawn by the one overview page. The
 * identification's work pages are the registry's (features/registry.ts: /work/process/relief/…).
 */
import { areaPages } from '../../platform/pages';

export const reliefPages = areaPages(
  'relief',
  () => import('@smart/contracts/relief').then((m) => m.RELIEF_AREA),
  {
    own: {
      preventionPoverty: () => import('./MonitorPage'),
    },
  },
);
