/** Registers the smart-agriculture screens' strings when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { agricultureEn, agricultureZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    agriculture: typeof agricultureZh;
  }
}

addBundle('agriculture', agricultureZh, agricultureEn);
