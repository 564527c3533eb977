/**
 * 公众号与小程序's screens: banners (轮播图: 置顶 / 取消置顶 per row, the set-to-top tag, whether a banner is
 * active today) and QR codes (二维码: each record's picture in the list and the view) are the generic list
 * page with their own columns and actions. The public account's menu editor (list, phone preview, JSON),
 * auto-replies with their test box, followers' synchronisation, conversations and materials are beside them;
 * its drafts (the draft editor, publishing followed to its outcome), publishing records and articles (with
 * their comments) are under drafts/.
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
      wxDraft: () => import('./drafts/DraftPage'),
      freePublish: () => import('./drafts/PublishPage'),
      wxArticle: () => import('./drafts/ArticlePage'),
    },
  },
);
