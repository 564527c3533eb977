/** Registers the system screens' strings when one of their chunks loads (so /login never carries them). */
import { addBundle } from '../../platform/i18n';
import { sysEn, sysZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    sys: typeof sysZh;
  }
}

addBundle('sys', sysZh, sysEn);
