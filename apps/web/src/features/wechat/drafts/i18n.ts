/** Registers the drafts, publishing, articles and comments screens' strings when one of their chunks loads. */
import { addBundle } from '../../../platform/i18n';
import { wxpubEn, wxpubZh } from './strings';

declare module '../../../platform/i18n' {
  interface ChunkBundles {
    wxpub: typeof wxpubZh;
  }
}

addBundle('wxpub', wxpubZh, wxpubEn);
