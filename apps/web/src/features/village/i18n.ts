/** Registers the village screens' strings when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { villageEn, villageZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    village: typeof villageZh;
  }
}

addBundle('village', villageZh, villageEn);
