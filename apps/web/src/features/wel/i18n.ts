/** Registers the home workplace's strings when its chunk loads. */
import { addBundle } from '../../platform/i18n';
import { homeEn, homeZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    home: typeof homeZh;
  }
}

addBundle('home', homeZh, homeEn);
