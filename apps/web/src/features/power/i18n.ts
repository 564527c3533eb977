/** Registers the PV station screens' strings when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { powerEn, powerZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    power: typeof powerZh;
  }
}

addBundle('power', powerZh, powerEn);
