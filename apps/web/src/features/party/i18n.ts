/** Registers the party building screens' strings when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { partyEn, partyZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    party: typeof partyZh;
  }
}

addBundle('party', partyZh, partyEn);
