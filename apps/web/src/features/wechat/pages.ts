/**
 * 公众号与小程序's screens: banners (轮播图: 置顶 / 取消置顶 per row, the set-to-top tag, whether a banner is
 * active today) and QR codes (二维码: each record's picture in the list and the view) are the generic list
 * page with their own columns and actions.
 */
import { areaPages } from '../../platform/pages';

export const wechatPages = areaPages(
  'wechat',
  () => import('@smart/contracts/wechat').then((m) => m.WECHAT_AREA),
  {
    own: {
      carousel: () => import('./CarouselPage'),
      qrcode: () => import('./QrcodePage'),
      wxMenu: () => import('./MenuPage'),
      wxAutoReply: () => import('./AutoReplyPage'),
      wxUser: () => import('./UserPage'),
      wxMsg: () => import('./MsgPage'),
      wxMaterial: () => import('./MaterialPage'),
    },
  },
);
