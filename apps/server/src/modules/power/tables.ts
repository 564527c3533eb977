import {
  collectSettingResource,
  dataCollectorResource,
  inverterResource,
  newEnergyHeatingResource,
  newEnergyPowerResource,
  powerShareResource,
  powerStationProfitResource,
  powerStationResource,
  powerTariffResource,
  powerVideoResource,
} from '@smart/contracts';
import { tableOf } from '../../platform/crud/model';

/**
 * PV stations (dfem-hope-power) tables, derived from their definitions in
 * packages/contracts/src/resource/power.ts. Readings, roll-ups and device states are the telemetry core's.
 */

export const powerStation = tableOf(powerStationResource);
export const dataCollector = tableOf(dataCollectorResource);
export const inverter = tableOf(inverterResource);
export const powerStationProfit = tableOf(powerStationProfitResource);
export const powerShare = tableOf(powerShareResource);
export const powerTariff = tableOf(powerTariffResource);
export const newEnergyPower = tableOf(newEnergyPowerResource);
export const newEnergyHeating = tableOf(newEnergyHeatingResource);
export const powerVideo = tableOf(powerVideoResource);
export const collectSetting = tableOf(collectSettingResource);
