import { POWER_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { seedStringAlarm } from '../telemetry/seed';
import { powerHooks } from './hooks';
import { powerRoutes } from './routes';
import { moveStationCamerasToDemoStreams, seedPower, seedTariffs } from './seed';

/** 光伏电站 on the server: stations over the telemetry core, yield, profit shares, tariffs, settings. */
export const powerArea = serverArea(POWER_AREA, {
  hooks: ({ db }) => powerHooks(db),
  routes: [{ prefix: '/api/dfem-hope-power', plugin: powerRoutes }],
  seed: [
    ['power-v1', seedPower],
    // the inverters' string alarms: their dictionary entry and parameters, for installs seeded before
    ['telemetry-string-alarm-v1', seedStringAlarm],
    // the station cameras play the server's demo streams (installs seeded when they pointed nowhere)
    ['power-demo-video-v1', moveStationCamerasToDemoStreams],
    // the demo stations' tariff versions (installs seeded before had none)
    ['power-tariffs-v1', seedTariffs],
  ],
});
