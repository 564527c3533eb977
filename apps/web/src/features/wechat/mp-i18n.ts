/** Registers the public account's screens' strings (`wxmp`) when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { wxmpEn, wxmpZh } from './mp-strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    wxmp: typeof wxmpZh;
  }
}

addBundle('wxmp', wxmpZh, wxmpEn);
