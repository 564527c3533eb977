/** Registers the assistance and care screens' strings when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { assistanceEn, assistanceZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    assistance: typeof assistanceZh;
  }
}

addBundle('assistance', assistanceZh, assistanceEn);
