/**
 * Smart-agriculture screens: the plots' screen adds the map and a plot's history, the plans' screen the
 * steps editor; the telemetry core's devices and alarms and its monitoring screens (features/telemetry/)
 * are this area's too. The rest get the generic list page.
 */
import { areaPages } from '../../platform/pages';

export const agriculturePages = areaPages(
  'agriculture',
  () => import('@smart/contracts/agriculture').then((m) => m.AGRICULTURE_AREA),
  {
    own: {
      plot: () => import('./PlotPage'),
      plan: () => import('./PlanPage'),
      // the telemetry core's devices (live state, history) and alarms (acknowledge, close)
      device: () => import('../telemetry/DevicePage'),
      deviceAlarm: () => import('../telemetry/AlarmPage'),
    },
    screens: {
      // monitoring over the telemetry core: one device list and chart per kind, the pest lamps' catch
      '/agriculture/weather/index': () =>
        import('../telemetry/MonitorPage').then((m) => ({ default: m.WeatherPage })),
      '/agriculture/soil/index': () =>
        import('../telemetry/MonitorPage').then((m) => ({ default: m.SoilPage })),
      '/agriculture/slope/index': () =>
        import('../telemetry/MonitorPage').then((m) => ({ default: m.SlopePage })),
      '/agriculture/pest/index': () => import('../telemetry/PestPage'),
    },
  },
);
