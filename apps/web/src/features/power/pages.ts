/**
 * PV station screens: every route under /power/ is a definition of POWER_AREA (the generic list page),
 * loaded with the first of its screens. The energy overview and the live station page are registry pages
 * (features/registry.ts), not definitions.
 */
import type { PageFamily } from '../../platform/pages';

export const powerPages: PageFamily = {
  prefixes: ['/power/'],
  load: () => import('@smart/contracts/power').then((m) => m.POWER_AREA.resources),
  own: {
    // the versions list, with 提交新版本 (code/submit)
    collectSetting: () => import('./CodePage'),
    // the profits, with each row's statement per household (Excel)
    powerStationProfit: () => import('./ProfitPage'),
  },
};
