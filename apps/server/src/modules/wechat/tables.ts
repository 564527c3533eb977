import {
  carouselResource,
  freePublishResource,
  qrcodeResource,
  wxAccountResource,
  wxArticleResource,
  wxAutoReplyResource,
  wxCommentResource,
  wxDraftResource,
  wxMaterialResource,
  wxMenuResource,
  wxMsgResource,
  wxUserResource,
} from '@smart/contracts';
import { tableOf } from '../../platform/crud/model';

/**
 * WeChat (公众号与小程序: dfem-hope-manage's banners and QR codes, dfem-hope-wx's public account) tables,
 * derived from their definitions in packages/contracts/src/resource/wechat.ts (platform/crud/model.ts).
 */

export const carousel = tableOf(carouselResource);
export const qrcode = tableOf(qrcodeResource);
export const wxAccount = tableOf(wxAccountResource);
export const wxMenu = tableOf(wxMenuResource);
export const wxAutoReply = tableOf(wxAutoReplyResource);
export const wxUser = tableOf(wxUserResource);
export const wxMsg = tableOf(wxMsgResource);
export const wxMaterial = tableOf(wxMaterialResource);
export const wxDraft = tableOf(wxDraftResource);
export const freePublish = tableOf(freePublishResource);
export const wxArticle = tableOf(wxArticleResource);
export const wxComment = tableOf(wxCommentResource);
