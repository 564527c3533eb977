/** Registers the rural-tourism screens' strings when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { tourismEn, tourismZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    tourism: typeof tourismZh;
  }
}

addBundle('tourism', tourismZh, tourismEn);
