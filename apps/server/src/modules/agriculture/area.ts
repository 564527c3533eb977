import { AGRICULTURE_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { telemetryHooks } from '../telemetry/hooks';
import { slopeRoutes, telemetryRoutes } from '../telemetry/routes';
import { seedTelemetry } from '../telemetry/seed';
import { agricultureHooks } from './hooks';
import { agricultureRoutes } from './routes';
import { seedAgriculture } from './seed';

/**
 * 智慧农业 on the server: plots, plans and records, and the telemetry core's devices, alarms and monitoring
 * screens (the core itself — ingestion, MQTT, the offline check — is a part of the server: app.ts).
 */
export const agricultureArea = serverArea(AGRICULTURE_AREA, {
  hooks: ({ db }) => ({ ...agricultureHooks(db), ...telemetryHooks() }),
  routes: [
    { prefix: '/api/dfem-hope-manage', plugin: agricultureRoutes },
    { prefix: '/api/dfem-hope-manage', plugin: telemetryRoutes },
    { prefix: '/api/dfem-hope-slope', plugin: slopeRoutes },
  ],
  seed: [
    ['agriculture-v1', seedAgriculture],
    ['telemetry-v1', seedTelemetry],
  ],
});
