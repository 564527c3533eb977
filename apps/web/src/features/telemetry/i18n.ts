/** Registers the telemetry screens' strings when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { telemetryEn, telemetryZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    telemetry: typeof telemetryZh;
  }
}

addBundle('telemetry', telemetryZh, telemetryEn);
