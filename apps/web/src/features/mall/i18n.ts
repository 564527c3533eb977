/** Registers the points mall's strings when one of its chunks loads. */
import { addBundle } from '../../platform/i18n';
import { mallEn, mallZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    mall: typeof mallZh;
  }
}

addBundle('mall', mallZh, mallEn);
