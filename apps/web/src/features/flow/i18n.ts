/** Registers the workflow screens' strings when one of their chunks loads (so /login never carries them). */
import { addBundle } from '../../platform/i18n';
import { wfEn, wfZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    wf: typeof wfZh;
  }
}

addBundle('wf', wfZh, wfEn);
