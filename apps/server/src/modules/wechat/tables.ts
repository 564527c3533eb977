import { carouselResource, qrcodeResource } from '@smart/contracts';
import { tableOf } from '../../platform/crud/model';

/**
 * WeChat (公众号与小程序, dfem-hope-manage) tables, derived from their definitions in
 * packages/contracts/src/resource/wechat.ts (platform/crud/model.ts).
 */

export const carousel = tableOf(carouselResource);
export const qrcode = tableOf(qrcodeResource);
