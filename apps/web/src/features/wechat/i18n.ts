/** Registers the WeChat screens' strings when one of their chunks loads. */
import { addBundle } from '../../platform/i18n';
import { wechatEn, wechatZh } from './strings';

declare module '../../platform/i18n' {
  interface ChunkBundles {
    wechat: typeof wechatZh;
  }
}

addBundle('wechat', wechatZh, wechatEn);
