import { WECHAT_AREA } from '@smart/contracts';
import { serverArea } from '../../platform/area';
import { articleHooks, commentHooks } from './articles';
import { callbackRoutes } from './callback';
import { wxApiBase } from './client';
import { draftHooks } from './drafts';
import { wechatHooks } from './hooks';
import { wechatMpHooks } from './mp';
import { freePublishHooks } from './publishing';
import { sandboxPlugin } from './sandbox/demo';
import { seedWechat } from './seed';
import { seedWechatDrafts } from './seed-drafts';
import { seedWechatMp } from './seed-mp';

/**
 * 公众号与小程序 on the server: banners (set to top, the family's route names) and QR codes with their picture;
 * the public account — accounts, custom menu, auto-replies, followers, messages, materials, drafts,
 * publishing, articles and comments — through the one WeChat
 * client, WeChat's callback, and the WeChat sandbox when WECHAT_SANDBOX=on.
 */
export const wechatArea = serverArea(WECHAT_AREA, {
  hooks: (deps) => {
    const base = wxApiBase(deps.config);
    return {
      ...wechatHooks(),
      ...wechatMpHooks(base),
      wxDraft: draftHooks(base, deps.config.WECHAT_IMAGE_FETCH),
      freePublish: freePublishHooks(base),
      wxArticle: articleHooks(base),
      wxComment: commentHooks(base),
    };
  },
  routes: [
    { prefix: '/api/dfem-hope-wx', plugin: callbackRoutes },
    { prefix: '/api/dfem-hope-wx', plugin: sandboxPlugin },
  ],
  seed: [
    ['wechat-v1', seedWechat],
    ['wechat-mp-v1', seedWechatMp],
    ['wechat-drafts-v1', seedWechatDrafts],
  ],
});
