/** Registers the safety screens' strings when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { safetyEn, safetyZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    safety: typeof safetyZh;
  }
}

addBundle('safety', safetyZh, safetyEn);
