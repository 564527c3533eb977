import { WECHAT_DEMO, WX_DRAFT_DEMO, WX_MATERIAL, WX_PUBLISH_STATE } from '@smart/contracts';
import type { Db } from '../../platform/db';
import { insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { DEMO_PUBLISHING, demoCoverPng } from './sandbox/demo-drafts';
import { freePublish, wxArticle, wxComment, wxDraft, wxMaterial } from './tables';

/**
 * Step `wechat-drafts-v1`: the demo account's cover picture (an image material), a draft of one article, one
 * published article (its publish record 成功 with its permanent link) and two readers' comments — the same
 * ids the demo sandbox knows (sandbox/demo-drafts.ts), so the screens are not empty and every action works.
 */
export async function seedWechatDrafts(db: Db) {
  const base = { tenantId: '000000', createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  const d = DEMO_PUBLISHING;
  const accountId = WECHAT_DEMO.accountId;
  const now = new Date();
  await insertAll(db, wxMaterial, [
    {
      ...base,
      id: '1190000000002540101',
      accountId,
      type: WX_MATERIAL.image,
      name: '封面-春耕.png',
      mediaId: d.coverMediaId,
      url: d.coverUrl,
      size: demoCoverPng().length,
    },
  ]);
  await insertAll(db, wxDraft, [
    {
      ...base,
      id: WX_DRAFT_DEMO.draftId,
      accountId,
      title: d.draft.title,
      articleCount: 1,
      articles: JSON.stringify([
        { ...d.draft, thumbMediaId: d.coverMediaId, thumbUrl: d.coverUrl, needOpenComment: 1 },
      ]),
      mediaId: d.draftMediaId,
    },
  ]);
  await insertAll(db, freePublish, [
    {
      ...base,
      id: WX_DRAFT_DEMO.publishId,
      accountId,
      title: d.published.title,
      state: WX_PUBLISH_STATE.success,
      url: d.articleUrl,
      articleId: d.articleId,
      publishId: d.publishId,
      msgDataId: String(d.msgDataId),
      publishStatus: 0,
      titles: JSON.stringify([d.published.title]),
      articleCount: 1,
      publishTime: now,
      checkedAt: now,
    },
  ]);
  await insertAll(db, wxArticle, [
    {
      ...base,
      id: WX_DRAFT_DEMO.articleId,
      accountId,
      ...d.published,
      url: d.articleUrl,
      thumbUrl: d.coverUrl,
      articleId: d.articleId,
      idx: 1,
      msgDataId: String(d.msgDataId),
      publishRowId: WX_DRAFT_DEMO.publishId,
      commentOpen: 1,
      hidden: 0,
      commentCount: d.comments.length,
      publishTime: now,
    },
  ]);
  await insertAll(
    db,
    wxComment,
    d.comments.map((c, i) => ({
      ...base,
      id: WX_DRAFT_DEMO.commentIds[i],
      accountId,
      articleRowId: WX_DRAFT_DEMO.articleId,
      userCommentId: i + 1,
      openid: c.openid,
      content: c.content,
      elected: i === 0 ? 1 : 0,
      commentTime: new Date(now.getTime() - (2 - i) * 3_600_000),
    })),
  );
}
