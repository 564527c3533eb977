/** Registers the resource screens' strings when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { resourceEn, resourceZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    resource: typeof resourceZh;
  }
}

addBundle('resource', resourceZh, resourceEn);
