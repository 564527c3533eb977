/** Registers 我的事务's strings (and the workflow lists' it builds on) when one of its chunks loads. */
import '../flow/i18n';
import { addBundle } from '../../platform/i18n';
import { workEn, workZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    work: typeof workZh;
  }
}

addBundle('work', workZh, workEn);
