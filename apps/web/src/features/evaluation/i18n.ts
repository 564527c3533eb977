/** Registers the evaluation screens' strings when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { evaluationEn, evaluationZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    evaluation: typeof evaluationZh;
  }
}

addBundle('evaluation', evaluationZh, evaluationEn);
