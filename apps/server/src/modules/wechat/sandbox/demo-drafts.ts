import { WX_DRAFT_DEMO } from '@smart/contracts';
import { bannerPng } from '../banner-image';
import type { WechatSandbox } from './server';

/**
 * The demo account's draft, published article and comments as WeChat keeps them: the seed (seed-drafts.ts)
 * writes the same ids here, and the demo sandbox (`npm start`, demo.ts) knows them, so publishing the demo
 * draft, synchronising the article's comments and opening or closing them work at once.
 */
export const DEMO_PUBLISHING = {
  coverMediaId: 'demoCoverMediaId0000000000000001',
  coverUrl: 'http://mmbiz.qpic.cn/sz_mmbiz_png/demoCoverMediaId0000000000000001/0',
  draftMediaId: 'demoDraftMediaId0000000000000001',
  articleId: 'demoArticleId00000000000000000001',
  publishId: '2247480001',
  msgDataId: 2_247_480_001,
  articleUrl: 'http://mp.weixin.qq.com/s?__biz=sandbox&mid=2247480001&idx=1',
  draft: {
    title: '春耕备耕工作通知',
    author: '村委会',
    digest: '请各户做好春耕备耕准备。',
    content:
      '<p style="text-indent: 2em;">各位村民:春耕时节将至,请各户提前检修农机、备足种子化肥。</p><p>村委会将于本周六在村部发放良种。</p>',
  },
  published: {
    title: '幸福村村规民约(2026 年修订)',
    author: '村委会',
    digest: '经村民代表大会表决通过的村规民约全文。',
    content: '<p>第一条 本村村民应当遵守国家法律法规……</p>',
  },
  comments: [
    { openid: 'o6_bmjrPTlm6_2sgVt7hMZOPf001', content: '支持!村规民约写得很实在。' },
    { openid: 'o6_bmjrPTlm6_2sgVt7hMZOPf002', content: '希望增加垃圾分类的条款。' },
  ],
} as const;

/** the demo cover's picture */
export const demoCoverPng = () => bannerPng([90, 160, 220], [200, 230, 255], [60, 140, 70], 360, 200);

/** the demo account's draft, cover, published article and comments, known to a sandbox */
export function demoPublishing(sandbox: WechatSandbox) {
  const d = DEMO_PUBLISHING;
  const p = sandbox.publishing;
  p.materials.set(d.coverMediaId, {
    media_id: d.coverMediaId,
    type: 'image',
    name: 'cover.png',
    data: demoCoverPng(),
    url: d.coverUrl,
    update_time: Math.floor(Date.now() / 1000),
  });
  p.drafts.set(d.draftMediaId, {
    news_item: [{ ...d.draft, thumb_media_id: d.coverMediaId, need_open_comment: 1 }],
    update_time: Math.floor(Date.now() / 1000),
  });
  p.articles.set(d.articleId, {
    news_item: [{ ...d.published, thumb_media_id: d.coverMediaId, need_open_comment: 1, url: d.articleUrl }],
    update_time: Math.floor(Date.now() / 1000),
    msg_data_id: d.msgDataId,
  });
  for (const c of d.comments) p.addComment(d.msgDataId, 0, c.openid, c.content);
  return WX_DRAFT_DEMO;
}
