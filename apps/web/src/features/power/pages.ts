/**
 * PV stations' screens: the collection settings' versions and the profits (statements per household) are
 * pages of their own, the rest the generic list page; the energy overview and the live station page are
 * screens of the area.
 */
import { areaPages } from '../../platform/pages';

export const powerPages = areaPages(
  'power',
  () => import('@smart/contracts/power').then((m) => m.POWER_AREA),
  {
    own: {
      // the versions list, with 提交新版本 (code/submit)
      collectSetting: () => import('./CodePage'),
      // the profits, with each row's statement per household (Excel)
      powerStationProfit: () => import('./ProfitPage'),
    },
    screens: {
      // the energy overview and the live station page (the core's readings, the wall's tile)
      '/power/overview/index': () => import('./OverviewPage'),
      '/power/live/index': () => import('./LivePage'),
    },
  },
);
