/**
 * The telemetry core's screens under /agriculture/: devices and alarms are definitions (the generic list
 * page, each with its own additions); the monitoring pages are registry pages (features/registry.ts).
 */
import type { PageFamily } from '../../platform/pages';

export const telemetryPages: PageFamily = {
  prefixes: ['/agriculture/device/', '/agriculture/alarm/', '/agriculture/pestPhoto/'],
  load: () => import('@smart/contracts/telemetry').then((m) => m.TELEMETRY_RESOURCES),
  own: {
    device: () => import('./DevicePage'),
    deviceAlarm: () => import('./AlarmPage'),
  },
};
