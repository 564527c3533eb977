import { dictCodes, dictionary } from './dicts';
import { area, dict as dictField, flag, ref, text } from './fields';
import { areaResource, type DictCode, type FieldDef, L, type Text2 } from './types';
import { WX_DEMO } from './wechat-mp';

/**
 * 公众号's drafts, publishing, published articles and their comments (spec §7 dfem-hope-wx: wxDraft, freePublish,
 * article, comment): the definitions, the publishing states, and WeChat's limits on a draft worded once for the
 * editor and the server (`wxDraftProblem`, `wxContentProblem`). The area's folder (wechat.ts) lists them after
 * the accounts, menu, replies, followers, messages and materials (wechat-mp.ts).
 */

/**
 * A publish's state (wx_publish_state): 已提交 when WeChat took the submit, 发布中 while `freepublish/get` says
 * 1, then one of WeChat's outcomes (publish_status 0 and 2 to 6).
 */
export const WX_PUBLISH_STATE = {
  submitted: '1',
  publishing: '2',
  success: '3',
  originalFail: '4',
  fail: '5',
  auditFail: '6',
  userDeleted: '7',
  banned: '8',
} as const;

export const WECHAT_DRAFT_DICTS = [
  dictionary('wx_publish_state', L('发布状态', 'Publishing state'), [
    { key: WX_PUBLISH_STATE.submitted, zh: '已提交', en: 'Submitted' },
    { key: WX_PUBLISH_STATE.publishing, zh: '发布中', en: 'Publishing' },
    { key: WX_PUBLISH_STATE.success, zh: '成功', en: 'Published' },
    { key: WX_PUBLISH_STATE.originalFail, zh: '原创失败', en: 'Originality check failed' },
    { key: WX_PUBLISH_STATE.fail, zh: '常规失败', en: 'Failed' },
    { key: WX_PUBLISH_STATE.auditFail, zh: '平台审核不通过', en: 'Refused by review' },
    {
      key: WX_PUBLISH_STATE.userDeleted,
      zh: '成功后用户删除所有文章',
      en: 'Deleted by the user after publishing',
    },
    { key: WX_PUBLISH_STATE.banned, zh: '成功后系统封禁所有文章', en: 'Banned by WeChat after publishing' },
  ]),
];

export const WX_DRAFT_DICT = dictCodes(WECHAT_DRAFT_DICTS);

/** WeChat's publish_status (freepublish/get) as a state; an unknown status is still publishing. */
export function wxPublishState(status: number): string {
  const by: Record<number, string> = {
    0: WX_PUBLISH_STATE.success,
    1: WX_PUBLISH_STATE.publishing,
    2: WX_PUBLISH_STATE.originalFail,
    3: WX_PUBLISH_STATE.fail,
    4: WX_PUBLISH_STATE.auditFail,
    5: WX_PUBLISH_STATE.userDeleted,
    6: WX_PUBLISH_STATE.banned,
  };
  return by[status] ?? WX_PUBLISH_STATE.publishing;
}

/** Whether a state is WeChat's last word (nothing more to ask `freepublish/get`). */
export const wxPublishFinal = (state: unknown) =>
  ![WX_PUBLISH_STATE.submitted, WX_PUBLISH_STATE.publishing].includes(String(state) as '1');

/** WeChat's limits on a draft (草稿箱 draft/add): articles, and each article's fields. */
export const WX_DRAFT_LIMITS = {
  articles: 8,
  title: 64,
  author: 8,
  digest: 120,
  /** characters of an article's HTML, after the server's processing */
  contentChars: 20_000,
  /** bytes of an article's HTML (UTF-8), after the server's processing */
  contentBytes: 1024 * 1024,
  sourceUrl: 1024,
} as const;

/** One article of a draft, as the editor sends it and the draft keeps it. */
export interface WxDraftArticle {
  title: string;
  author?: string;
  digest?: string;
  content: string;
  /** the cover: a permanent image or thumbnail material's media_id */
  thumbMediaId: string;
  /** the cover's picture, for the screens (the material's URL) */
  thumbUrl?: string;
  contentSourceUrl?: string;
  needOpenComment?: number;
  onlyFansCanComment?: number;
}

export interface WxDraftProblem {
  /** `articles[1].title` */
  path: string;
  message: Text2;
}

/** 第2篇 */
export const wxArticleName = (i: number): Text2 => L(`第${i + 1}篇`, `Article ${i + 1}`);

const at = (i: number, field: string, m: Text2): WxDraftProblem => {
  const n = wxArticleName(i);
  return { path: `articles[${i}].${field}`, message: L(`${n.zh}:${m.zh}`, `${n.en}: ${m.en}`) };
};

const chars = (s: unknown) => [...String(s ?? '')].length;
const HTTP = /^https?:\/\/[^\s<>"'`]+$/i;

/**
 * What WeChat would refuse in a draft's articles before any image is processed: 1 to 8 articles; each with a
 * title (≤ 64 characters), author ≤ 8, digest ≤ 120, content, a cover (封面) and an http(s) source link of at
 * most 1024 characters. Null when fine. The content's size is judged once its pictures moved
 * (`wxContentProblem`, the server after processing; the editor as a hint).
 */
export function wxDraftProblem(articles: unknown): WxDraftProblem | null {
  if (!Array.isArray(articles) || articles.length === 0)
    return { path: 'articles', message: L('草稿至少包含 1 篇文章', 'A draft holds at least 1 article') };
  if (articles.length > WX_DRAFT_LIMITS.articles)
    return {
      path: 'articles',
      message: L(
        `一篇草稿最多 ${WX_DRAFT_LIMITS.articles} 篇文章(当前 ${articles.length} 篇)`,
        `A draft holds at most ${WX_DRAFT_LIMITS.articles} articles (now ${articles.length})`,
      ),
    };
  for (const [i, raw] of articles.entries()) {
    if (!raw || typeof raw !== 'object')
      return at(i, 'title', L('文章格式不正确', 'The article has an incorrect format'));
    const a = raw as Record<string, unknown>;
    if (!String(a.title ?? '').trim()) return at(i, 'title', L('请填写标题', 'Enter the title'));
    if (chars(a.title) > WX_DRAFT_LIMITS.title)
      return at(i, 'title', L('标题不能超过 64 个字', 'The title may be at most 64 characters'));
    if (chars(a.author) > WX_DRAFT_LIMITS.author)
      return at(i, 'author', L('作者不能超过 8 个字', 'The author may be at most 8 characters'));
    if (chars(a.digest) > WX_DRAFT_LIMITS.digest)
      return at(i, 'digest', L('摘要不能超过 120 个字', 'The digest may be at most 120 characters'));
    if (!String(a.thumbMediaId ?? '').trim())
      return at(i, 'thumbMediaId', L('请选择封面图片', 'Choose a cover image'));
    if (!String(a.content ?? '').trim()) return at(i, 'content', L('请填写正文', 'Enter the content'));
    const src = String(a.contentSourceUrl ?? '');
    if (src && (!HTTP.test(src) || src.length > WX_DRAFT_LIMITS.sourceUrl))
      return at(
        i,
        'contentSourceUrl',
        L(
          '原文链接须以 http:// 或 https:// 开头,且不超过 1024 个字符',
          'The source link must start with http:// or https:// and have at most 1024 characters',
        ),
      );
  }
  return null;
}

/** An article's HTML against WeChat's size limits (under 20 000 characters and 1 MB), null when fine. */
export function wxContentProblem(content: string): Text2 | null {
  const n = content.length;
  const bytes = new TextEncoder().encode(content).length;
  if (n >= WX_DRAFT_LIMITS.contentChars || bytes >= WX_DRAFT_LIMITS.contentBytes)
    return L(
      `正文须少于 2 万字符且小于 1MB(当前 ${n} 字符,${Math.ceil(bytes / 1024)}KB)`,
      `The content must be under 20,000 characters and 1 MB (now ${n} characters, ${Math.ceil(bytes / 1024)} KB)`,
    );
  return null;
}

/**
 * The failed articles of a publish (WeChat's `fail_idx`, 1 for the first) named by their titles:
 * 第2篇《春耕》. Unknown places are named by their number alone.
 */
export function wxFailedArticles(failIdx: readonly number[], titles: readonly string[]): Text2 {
  const named = failIdx.map((n) => ({ n, t: titles[n - 1] }));
  return L(
    named.map(({ n, t }) => `第${n}篇${t ? `《${t}》` : ''}`).join('、'),
    named.map(({ n, t }) => `article ${n}${t ? ` “${t}”` : ''}`).join(', '),
  );
}

/** The demo rows the seed adds to the demo account (step wechat-drafts-v1). */
export const WX_DRAFT_DEMO = {
  draftId: '1190000000002540001',
  publishId: '1190000000002550001',
  articleId: '1190000000002560001',
  commentIds: ['1190000000002570001', '1190000000002570002'],
} as const;

const dict = (name: string, label: Text2, code: DictCode, opts: Partial<FieldDef> = {}): FieldDef =>
  dictField(name, label, code, { search: 'equal', ...opts });

const wxResource = areaResource('dfem-hope-wx', 'wechat');

const accountRef = () =>
  ref('accountId', L('公众号', 'Public account'), 'wxAccount', WX_DEMO.accountId, { required: true });

const EXAMPLE_ARTICLES =
  '[{"title":"春耕备耕通知","author":"村委会","digest":"","content":"<p>各位村民:</p>","thumbMediaId":"sandboxThumb0001"}]';

/**
 * 草稿箱: a draft of 1 to 8 articles (`articles`, JSON: title, author, digest, content, cover, source link,
 * comments), written by `wxDraft/add` and `wxDraft/update` alone — after the server cleaned its HTML, moved
 * its pictures to WeChat and WeChat took it (`mediaId`) —, removed by `del/{id}` and published by
 * `publish/{id}`.
 */
export const wxDraftResource = wxResource(
  'wxDraft',
  'hope_wx_draft',
  'EditOutlined',
  L('草稿箱', 'Drafts'),
  'draft',
  'wxDraft',
  [
    accountRef(),
    text('title', L('标题', 'Title'), 64, { required: true, search: 'like', example: '春耕备耕通知' }),
    {
      name: 'articleCount',
      label: L('文章数', 'Articles'),
      type: 'int',
      min: 1,
      max: WX_DRAFT_LIMITS.articles,
      example: '1',
    },
    {
      name: 'articles',
      label: L('文章', 'Articles'),
      type: 'json',
      max: 400_000,
      required: true,
      list: false,
      detailOnly: true,
      example: EXAMPLE_ARTICLES,
    },
    text('mediaId', L('草稿 media_id', 'Draft media_id'), 128, {
      required: true,
      list: false,
      example: 'sandboxDraftMediaId0001',
    }),
  ],
  { readOnly: true, defaultSort: { field: 'updateTime', desc: true } },
);

/**
 * 发布记录: one publish of a draft (`freepublish/submit`) and what WeChat answered since: its state, the failed
 * articles (`fail_idx`, named), and once published its `articleId` and the first article's permanent link.
 */
export const freePublishResource = wxResource(
  'freePublish',
  'hope_wx_free_publish',
  'SendOutlined',
  L('发布记录', 'Published'),
  'publish',
  'freePublish',
  [
    accountRef(),
    text('title', L('标题', 'Title'), 64, { required: true, search: 'like', example: '春耕备耕通知' }),
    dict('state', L('发布状态', 'State'), WX_DRAFT_DICT.wx_publish_state, { required: true }),
    text('url', L('永久链接', 'Permanent link'), 500),
    text('articleId', L('article_id', 'article_id'), 128, { list: false, search: 'equal' }),
    text('publishId', L('publish_id', 'publish_id'), 64, {
      required: true,
      list: false,
      example: '2247483647',
    }),
    text('msgDataId', L('msg_data_id', 'msg_data_id'), 32, { list: false }),
    text('draftId', L('草稿', 'Draft'), 20, { list: false, view: false }),
    {
      name: 'publishStatus',
      label: L('微信发布状态码', 'WeChat publish_status'),
      type: 'int',
      min: 0,
      max: 99,
      list: false,
    },
    text('failIdx', L('失败文章序号', 'Failed articles (places)'), 64, { list: false }),
    text('failed', L('失败文章', 'Failed articles'), 500),
    {
      name: 'titles',
      label: L('各篇标题', 'Titles'),
      type: 'json',
      max: 2000,
      list: false,
      view: false,
    },
    { name: 'articleCount', label: L('文章数', 'Articles'), type: 'int', min: 0, max: 8 },
    { name: 'checkedAt', label: L('最近查询', 'Last checked'), type: 'datetime', list: false },
    { name: 'publishTime', label: L('提交时间', 'Submitted at'), type: 'datetime' },
  ],
  { readOnly: true, defaultSort: { field: 'publishTime', desc: true } },
);

/**
 * 文章管理: the articles WeChat published (one row per article of a publish), with their comments' switch and
 * whether they are hidden from this product's own lists (`article/hide/{id}`).
 */
export const wxArticleResource = wxResource(
  'wxArticle',
  'hope_wx_article',
  'FileTextOutlined',
  L('文章管理', 'Articles'),
  'article',
  'wxArticle',
  [
    accountRef(),
    text('title', L('标题', 'Title'), 64, { required: true, search: 'like', example: '春耕备耕通知' }),
    text('author', L('作者', 'Author'), 8),
    area('digest', L('摘要', 'Digest'), 120),
    {
      name: 'content',
      label: L('正文', 'Content'),
      type: 'textarea',
      max: 1_100_000,
      detailOnly: true,
      list: false,
    },
    text('url', L('永久链接', 'Permanent link'), 500),
    text('thumbUrl', L('封面', 'Cover'), 500, { list: false }),
    text('articleId', L('article_id', 'article_id'), 128, {
      required: true,
      list: false,
      search: 'equal',
      example: 'sandboxArticle0001',
    }),
    { name: 'idx', label: L('篇序', 'Place'), type: 'int', min: 1, max: 8, required: true, example: '1' },
    text('msgDataId', L('msg_data_id', 'msg_data_id'), 32, { list: false }),
    text('publishRowId', L('发布记录', 'Publish'), 20, { list: false, view: false }),
    flag('commentOpen', L('留言开启', 'Comments open'), { default: 0, search: 'equal' }),
    flag('hidden', L('已隐藏', 'Hidden'), { default: 0, search: 'equal' }),
    {
      name: 'commentCount',
      label: L('留言数', 'Comments'),
      type: 'int',
      min: 0,
      max: 100_000_000,
      default: 0,
    },
    { name: 'publishTime', label: L('发布时间', 'Published at'), type: 'datetime' },
  ],
  {
    path: 'article',
    readOnly: true,
    defaultSort: { field: 'publishTime', desc: true },
    select: { label: 'title', search: ['title'] },
  },
);

/**
 * 留言管理: readers' comments on a published article, synchronised from WeChat (`comment/list`). Readers see
 * the 精选 (elected) ones: `comment/hide/{id}` takes a comment out of them on WeChat (`comment/unmarkelect`),
 * `comment/hide/{id}?hidden=0` shows it again (`comment/markelect`).
 */
export const wxCommentResource = wxResource(
  'wxComment',
  'hope_wx_comment',
  'SolutionOutlined',
  L('留言管理', 'Comments'),
  'comment',
  'wxComment',
  [
    accountRef(),
    ref('articleRowId', L('文章', 'Article'), 'wxArticle', WX_DRAFT_DEMO.articleId, { required: true }),
    {
      name: 'userCommentId',
      label: L('留言编号', 'Comment number'),
      type: 'int',
      min: 0,
      max: 2_000_000_000,
      required: true,
      list: false,
      example: '1',
    },
    text('openid', L('OpenID', 'OpenID'), 64, { list: false, search: 'equal' }),
    area('content', L('留言内容', 'Comment'), 1000, { required: true, list: true, example: '好消息!' }),
    area('replyContent', L('作者回复', 'Reply'), 1000),
    flag('elected', L('精选(读者可见)', 'Elected (shown to readers)'), { default: 0, search: 'equal' }),
    { name: 'commentTime', label: L('留言时间', 'Written at'), type: 'datetime' },
  ],
  {
    path: 'comment',
    readOnly: true,
    unique: [['articleRowId', 'userCommentId']],
    defaultSort: { field: 'commentTime', desc: true },
  },
);
