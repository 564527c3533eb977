import { describe, expect, it } from 'vitest';
import {
  freePublishResource,
  WX_PUBLISH_STATE,
  wxContentProblem,
  wxDraftProblem,
  wxFailedArticles,
  wxPublishFinal,
  wxPublishState,
} from './wechat-drafts';

const article = (over: Record<string, unknown> = {}) => ({
  title: '通知',
  content: '<p>正文</p>',
  thumbMediaId: 'm1',
  ...over,
});

describe('a draft against WeChat’s limits', () => {
  it('holds 1 to 8 articles', () => {
    expect(wxDraftProblem([])?.path).toBe('articles');
    expect(wxDraftProblem(Array.from({ length: 8 }, () => article()))).toBeNull();
    expect(wxDraftProblem(Array.from({ length: 9 }, () => article()))?.message.zh).toBe(
      '一篇草稿最多 8 篇文章(当前 9 篇)',
    );
  });

  it('names the article and field: title, author, digest, cover, content, source link', () => {
    expect(wxDraftProblem([article(), article({ title: ' ' })])).toEqual({
      path: 'articles[1].title',
      message: { zh: '第2篇:请填写标题', en: 'Article 2: Enter the title' },
    });
    expect(wxDraftProblem([article({ title: '字'.repeat(65) })])?.path).toBe('articles[0].title');
    expect(wxDraftProblem([article({ title: '字'.repeat(64) })])).toBeNull();
    expect(wxDraftProblem([article({ author: '一二三四五六七八九' })])?.path).toBe('articles[0].author');
    expect(wxDraftProblem([article({ digest: 'x'.repeat(121) })])?.path).toBe('articles[0].digest');
    expect(wxDraftProblem([article({ thumbMediaId: '' })])?.path).toBe('articles[0].thumbMediaId');
    expect(wxDraftProblem([article({ content: '' })])?.path).toBe('articles[0].content');
    expect(wxDraftProblem([article({ contentSourceUrl: 'javascript:alert(1)' })])?.path).toBe(
      'articles[0].contentSourceUrl',
    );
    expect(wxDraftProblem([article({ contentSourceUrl: 'https://example.com/a' })])).toBeNull();
    expect(wxDraftProblem(['x'])?.path).toBe('articles[0].title');
  });

  it('content: under 20 000 characters and 1 MB', () => {
    expect(wxContentProblem('a'.repeat(19_999))).toBeNull();
    expect(wxContentProblem('a'.repeat(20_000))?.zh).toContain('2 万字符');
    // 19 000 characters of 4 bytes (emoji as surrogate pairs count 2 in length): over 1 MB? no — 76 KB
    expect(wxContentProblem('村'.repeat(19_000))).toBeNull();
  });
});

describe('publishing', () => {
  it('maps WeChat’s publish_status to a state; only 已提交 and 发布中 are not final', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 99].map(wxPublishState)).toEqual([
      WX_PUBLISH_STATE.success,
      WX_PUBLISH_STATE.publishing,
      WX_PUBLISH_STATE.originalFail,
      WX_PUBLISH_STATE.fail,
      WX_PUBLISH_STATE.auditFail,
      WX_PUBLISH_STATE.userDeleted,
      WX_PUBLISH_STATE.banned,
      WX_PUBLISH_STATE.publishing,
    ]);
    expect(wxPublishFinal(WX_PUBLISH_STATE.submitted)).toBe(false);
    expect(wxPublishFinal(WX_PUBLISH_STATE.publishing)).toBe(false);
    expect(wxPublishFinal(WX_PUBLISH_STATE.fail)).toBe(true);
  });

  it('names the failed articles (fail_idx counts from 1)', () => {
    expect(wxFailedArticles([1, 3], ['春耕', '秋收'])).toEqual({
      zh: '第1篇《春耕》、第3篇',
      en: 'article 1 “春耕”, article 3',
    });
  });

  it('answers the fields the menu editor reads: accountId, articleId, title, url', () => {
    const names = freePublishResource.fields.map((f) => f.name);
    for (const f of ['accountId', 'articleId', 'title', 'url']) expect(names).toContain(f);
  });
});
