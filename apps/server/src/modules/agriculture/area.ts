import { AGRICULTURE_AREA, ALARM_STATE } from '@smart/contracts';
import { ne, sql } from 'drizzle-orm';
import { serverArea } from '../../platform/area';
import { qualified } from '../../platform/sql';
import { seedTelemetryKeep } from '../telemetry/compact';
import { telemetryHooks } from '../telemetry/hooks';
import { pestOtherDays, pestToday, slopeRoutes, telemetryRoutes } from '../telemetry/routes';
import { seedPestPhotos, seedTelemetry } from '../telemetry/seed';
import { device, deviceAlarm, telemetryState } from '../telemetry/tables';
import { agricultureHooks } from './hooks';
import { certificationsByYear, incomeByYear } from './overview';
import { seedAgriculture } from './seed';

/**
 * 智慧农业 on the server: plots, plans and records, and the telemetry core's devices, alarms and monitoring
 * screens (the core itself — ingestion, MQTT, the offline check — is a part of the server: app.ts).
 */
export const agricultureArea = serverArea(AGRICULTURE_AREA, {
  hooks: ({ db }) => ({ ...agricultureHooks(db), ...telemetryHooks() }),
  routes: [
    { prefix: '/api/dfem-hope-manage', plugin: telemetryRoutes },
    { prefix: '/api/dfem-hope-slope', plugin: slopeRoutes },
  ],
  home: {
    openAlarms: () => ne(deviceAlarm.state, ALARM_STATE.closed),
    // the monitoring screens' online rule: a reading within three report intervals (`liveOf`)
    offlineDevices: () =>
      sql`not exists (select 1 from ${telemetryState} s where s.device_id = ${qualified(device.id)} and s.last_at >= now() - make_interval(secs => 3 * greatest(coalesce(${qualified(device.reportInterval)}, 300), 10)))`,
  },
  overview: { cer: certificationsByYear, income: incomeByYear, today: pestToday, other: pestOtherDays },
  seed: [
    ['agriculture-v1', seedAgriculture],
    ['telemetry-v1', seedTelemetry],
    // what the trap lamps photographed (installs seeded before have none unless the simulator ran)
    ['telemetry-pest-photos-v1', seedPestPhotos],
    // the telemetry storage job's raw-keep and retention parameters
    ['telemetry-keep-v1', seedTelemetryKeep],
  ],
});
