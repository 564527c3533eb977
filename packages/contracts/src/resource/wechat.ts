import { dictCodes, dictionary, numbered } from './dicts';
import { dict as dictField, flag, remark, text } from './fields';
import { areaResource, type DictCode, defineArea, type FieldDef, L, type Text2 } from './types';
import {
  freePublishResource,
  WECHAT_DRAFT_DICTS,
  wxArticleResource,
  wxCommentResource,
  wxDraftResource,
} from './wechat-drafts';
import {
  WECHAT_MP_DICTS,
  WX_DEMO,
  wxAccountResource,
  wxAutoReplyResource,
  wxMaterialResource,
  wxMenuResource,
  wxMsgResource,
  wxUserResource,
} from './wechat-mp';

/**
 * 公众号与小程序 (WeChat, spec §1 mini-program and public-account area, §4 "Carousel banners: they can be set
 * to top", §7 dfem-hope-manage carousel and qrcode): for now the mini-program's banners (轮播图) and the QR
 * codes kept for reuse (二维码); the public account's articles, menus and replies join this area later.
 * Domain: shared/design/domain.md "Tourism, points mall, carousel" (banners with order and set-top).
 */

/** The WeChat area's dictionaries (created by the dictionary sync from this declaration). */
export const WECHAT_DICTS = [
  dictionary(
    'carousel_link_kind',
    L('轮播图链接类型', 'Banner link kind'),
    numbered([
      ['文章', 'Article'],
      ['旅游预设', 'Tourism preset'],
      ['网址', 'Web address'],
    ]),
  ),
  dictionary(
    'carousel_position',
    L('轮播图位置', 'Banner position'),
    numbered([
      ['首页', 'Home'],
      ['旅游', 'Tourism'],
      ['积分商城', 'Points mall'],
    ]),
  ),
  dictionary(
    'qrcode_purpose',
    L('二维码用途', 'QR code purpose'),
    numbered([
      ['兑换核销', 'Redemption'],
      ['旅游预约', 'Tourism booking'],
      ['宣传推广', 'Promotion'],
      ['其他', 'Other'],
    ]),
  ),
  ...WECHAT_MP_DICTS,
  ...WECHAT_DRAFT_DICTS,
];

/** What a field names its dictionary by: `WECHAT_DICT.<code>`. */
export const WECHAT_DICT = dictCodes(WECHAT_DICTS);

/** The banner link kinds' keys (carousel_link_kind). */
export const CAROUSEL_LINK = { article: '1', tourism: '2', web: '3' } as const;

/**
 * The most a QR code record holds, and what `qrcode/getQRCodeBase64?content=` draws: the server's
 * `QR_CONTENT_MAX` (platform/redeem.ts; its API test checks that both agree).
 */
export const QRCODE_CONTENT_MAX = 512;

const SERVICE = 'dfem-hope-manage';
const resource = areaResource(SERVICE, 'wechat');

/** every dictionary of this area is a filter of its list */
const dict = (name: string, label: Text2, code: DictCode, opts: Partial<FieldDef> = {}): FieldDef =>
  dictField(name, label, code, { search: 'equal', ...opts });

/**
 * A banner's link target: an http(s) address, or (for an article or a tourism preset) its id or the
 * mini-program's path to it (`/pages/article/detail?id=12`) — no scheme of any other kind (`javascript:`),
 * no other host's `//…`, no spaces or quotes. Which of the two the link kind asks for: `carouselLinkProblem`.
 */
export const CAROUSEL_TARGET = '^(?:https?://[^\\s<>"\'`]+|(?!//)[^\\s:<>"\'`]+)$';
const WEB_ADDRESS = /^https?:\/\/[^\s/?#<>"'`]+[^\s<>"'`]*$/i;

export const CAROUSEL_MESSAGES = {
  target: L('链接目标格式不正确', 'The link target has an incorrect format'),
  web: L('网址须以 http:// 或 https:// 开头', 'A web address must start with http:// or https://'),
} as const;

/**
 * The rule between a banner's link kind and its target, worded once for both ends (the form's rule, the
 * server's `beforeWrite` on every submit and import): a web address (网址) is an http(s) URL; an article's or a
 * tourism preset's target is an id or a path (the definition's pattern). Null when fine or not linked.
 */
export function carouselLinkProblem(kind: unknown, target: unknown): Text2 | null {
  const t = target === null || target === undefined ? '' : String(target).trim();
  if (t === '') return null;
  if (String(kind ?? '') === CAROUSEL_LINK.web && !WEB_ADDRESS.test(t)) return CAROUSEL_MESSAGES.web;
  return null;
}

/**
 * Whether a banner shows on `today` (YYYY-MM-DD): enabled, and `today` within its active dates
 * (`YYYY-MM-DD,YYYY-MM-DD`, either end open when missing); a banner without dates is always active.
 */
export function carouselActive(row: { enabled?: unknown; activePeriod?: unknown }, today: string): boolean {
  if (row.enabled !== undefined && row.enabled !== null && Number(row.enabled) !== 1) return false;
  const period = row.activePeriod ? String(row.activePeriod) : '';
  if (!period) return true;
  const [from = '', to = ''] = period.split(',').map((s) => s.trim());
  return (!from || from <= today) && (!to || today <= to);
}

/** Rows the demo seed always creates (tenant 000000). */
export const WECHAT_DEMO = {
  carouselIds: ['1190000000002500001', '1190000000002500002', '1190000000002500003'],
  qrcodeId: '1190000000002510001',
  ...WX_DEMO,
} as const;

/**
 * 轮播图: the mini-program's banners — an image, where a tap leads (an article, a tourism preset or a web
 * address), on which page it shows, its order, its active dates and whether it is on. `isTop` is written by
 * `carousel/set/top/{id}/{1|0}` alone (its own button, 置顶); the list answers top banners first, then by order.
 */
export const carouselResource = resource(
  'carousel',
  'hope_carousel',
  'PictureOutlined',
  L('轮播图', 'Banners'),
  'carousel',
  'carousel',
  [
    { name: 'image', label: L('图片', 'Image'), type: 'image', max: 255, required: true, excel: false },
    text('title', L('标题', 'Title'), 60, { search: 'like' }),
    dict('position', L('显示位置', 'Position'), WECHAT_DICT.carousel_position, {
      required: true,
      default: '1',
    }),
    dict('linkKind', L('链接类型', 'Link kind'), WECHAT_DICT.carousel_link_kind),
    text('linkTarget', L('链接目标', 'Link target'), 500, {
      pattern: CAROUSEL_TARGET,
      patternMessage: CAROUSEL_MESSAGES.target,
      example: 'https://www.example.com/spring',
      list: false,
      span: 24,
      requiredWhen: {
        field: 'linkKind',
        message: L('请填写链接目标', 'Enter the link target'),
      },
    }),
    {
      name: 'sortOrder',
      label: L('排序', 'Order'),
      type: 'int',
      min: 0,
      max: 9999,
      default: 0,
    },
    flag('isTop', L('置顶', 'On top'), { readOnly: true, form: false }),
    {
      name: 'activePeriod',
      label: L('生效日期', 'Active dates'),
      type: 'dateRange',
      example: '2026-01-01,2026-12-31',
    },
    flag('enabled', L('启用', 'Enabled'), { default: 1, search: 'equal' }),
  ],
);

/**
 * 二维码: QR codes kept for reuse — what they hold (a URL or a code, at most 512 characters) and what for. The
 * image is drawn from the content by `qrcode/getQRCodeBase64?content=` (a PNG data URL), never stored.
 */
export const qrcodeResource = resource(
  'qrcode',
  'hope_qrcode',
  'AppstoreOutlined',
  L('二维码', 'QR codes'),
  'qrcode',
  'qrcode',
  [
    dict('purpose', L('用途', 'Purpose'), WECHAT_DICT.qrcode_purpose, { required: true }),
    {
      name: 'content',
      label: L('二维码内容', 'Content'),
      type: 'textarea',
      max: QRCODE_CONTENT_MAX,
      required: true,
      span: 24,
      search: 'like',
      example: 'https://www.example.com/qr/1',
    },
    remark(),
  ],
);

/** 公众号与小程序: the menu folder and its screens, in menu order. */
export const WECHAT_AREA = defineArea({
  code: 'wechat',
  label: L('公众号与小程序', 'WeChat'),
  icon: 'WechatOutlined',
  resources: [
    carouselResource,
    qrcodeResource,
    wxAccountResource,
    wxMenuResource,
    wxAutoReplyResource,
    wxUserResource,
    wxMsgResource,
    wxMaterialResource,
    wxDraftResource,
    freePublishResource,
    wxArticleResource,
    wxCommentResource,
  ],
  buttons: {
    carousel: [{ code: 'top', label: L('置顶', 'Set to top') }],
    wxAccount: [{ code: 'clearQuota', label: L('清空调用次数', 'Clear API quota') }],
    wxMenu: [{ code: 'release', label: L('发布菜单', 'Release menu') }],
    wxAutoReply: [
      { code: 'enable', label: L('启用/停用', 'Enable / disable') },
      { code: 'test', label: L('测试回复', 'Test a reply') },
    ],
    wxUser: [
      { code: 'synchron', label: L('同步粉丝', 'Synchronise followers') },
      { code: 'remark', label: L('修改备注', 'Edit remark') },
      { code: 'tag', label: L('打标签', 'Tag') },
    ],
    wxMsg: [{ code: 'reply', label: L('回复', 'Reply') }],
    wxMaterial: [
      { code: 'upload', label: L('上传素材', 'Upload') },
      { code: 'delete', label: L('删除', 'Delete') },
    ],
    wxDraft: [
      { code: 'add', label: L('新增草稿', 'New draft') },
      { code: 'edit', label: L('编辑草稿', 'Edit draft') },
      { code: 'delete', label: L('删除草稿', 'Delete draft') },
      { code: 'publish', label: L('发布', 'Publish') },
    ],
    freePublish: [{ code: 'delete', label: L('删除发布', 'Delete publication') }],
    wxArticle: [
      { code: 'hide', label: L('隐藏/显示', 'Hide / show') },
      { code: 'comment', label: L('开启/关闭留言', 'Open / close comments') },
    ],
    wxComment: [
      { code: 'hide', label: L('隐藏/精选', 'Hide / elect') },
      { code: 'synchron', label: L('同步留言', 'Synchronise comments') },
    ],
  },
  dicts: WECHAT_DICTS,
});
