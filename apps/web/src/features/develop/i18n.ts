/** Registers the developer tools' strings when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { developEn, developZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    develop: typeof developZh;
  }
}

addBundle('develop', developZh, developEn);
