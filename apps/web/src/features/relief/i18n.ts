/** Registers the poverty relief screens' strings when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { reliefEn, reliefZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    relief: typeof reliefZh;
  }
}

addBundle('relief', reliefZh, reliefEn);
