import { dictCodes, dictionary, numbered } from './dicts';
import { area, dict as dictField, flag, ref, remark, text } from './fields';
import { areaResource, type DictCode, defineArea, type FieldDef, L, type Text2 } from './types';

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
  dictionary(
    'wx_reply_kind',
    L('自动回复类型', 'Auto-reply kind'),
    numbered([
      ['关注时回复', 'On subscribe'],
      ['关键词回复', 'By keyword'],
      ['收到消息回复', 'Default reply'],
    ]),
  ),
  dictionary(
    'wx_match_mode',
    L('关键词匹配方式', 'Keyword match'),
    numbered([
      ['全匹配', 'Full match'],
      ['半匹配', 'Partial match'],
    ]),
  ),
  dictionary(
    'wx_msg_direction',
    L('消息方向', 'Message direction'),
    numbered([
      ['收到', 'Received'],
      ['回复', 'Replied'],
    ]),
  ),
  dictionary(
    'wx_material_type',
    L('素材类型', 'Material type'),
    numbered([
      ['图片', 'Image'],
      ['语音', 'Voice'],
      ['视频', 'Video'],
      ['缩略图', 'Thumbnail'],
    ]),
  ),
  dictionary(
    'wx_sync_state',
    L('粉丝同步状态', 'Follower sync state'),
    numbered([
      ['同步中', 'Running'],
      ['已完成', 'Done'],
      ['已中断', 'Interrupted'],
    ]),
  ),
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
  /** the demo public account (its appId is WeChat-shaped, its secret lives in the server's sandbox seed) */
  accountId: '1190000000002520001',
  appId: 'wx5c0d3e4f5a6b7c8d',
  replyIds: ['1190000000002530001', '1190000000002530002', '1190000000002530003'],
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

// ---- the public account (公众号, spec §7 dfem-hope-wx) ------------------------------------------------------
// WeChat's own limits and behaviour (shared/design/domain.md "WeChat public account"), worded once for the
// server and the browser: the custom menu's rules, the auto-replies' matching, WeChat's error codes.

const WX_SERVICE = 'dfem-hope-wx';
const wxResource = areaResource(WX_SERVICE, 'wechat');

/** An AppID as WeChat issues them: `wx` and 16 hexadecimal digits. */
export const WX_APPID = '^wx[0-9a-f]{16}$';

/** The auto-reply kinds' keys (wx_reply_kind) and the keyword match modes' (wx_match_mode). */
export const WX_REPLY_KIND = { subscribe: '1', keyword: '2', default: '3' } as const;
export const WX_MATCH = { full: '1', partial: '2' } as const;
/** A message's direction (wx_msg_direction) and a follower synchronisation's state (wx_sync_state). */
export const WX_DIRECTION = { received: '1', replied: '2' } as const;
export const WX_SYNC = { running: '1', done: '2', interrupted: '3' } as const;

/** How many bytes WeChat counts for a text: its UTF-8 length (a Chinese character is 3). */
export const utf8Bytes = (s: string): number => new TextEncoder().encode(s).length;

/** WeChat's custom-menu limits (自定义菜单): buttons, and sizes in UTF-8 bytes. */
export const WX_MENU_LIMITS = {
  buttons: 3,
  subButtons: 5,
  name: 16,
  subName: 60,
  key: 128,
  url: 1024,
} as const;

/** The ten action types of spec §2, and what each needs besides its name. */
export const WX_MENU_TYPES = {
  click: ['key'],
  view: ['url'],
  scancode_push: ['key'],
  scancode_waitmsg: ['key'],
  pic_sysphoto: ['key'],
  pic_photo_or_album: ['key'],
  pic_weixin: ['key'],
  location_select: ['key'],
  miniprogram: ['appid', 'pagepath', 'url'],
  article_view_limited: ['article_id'],
} as const satisfies Record<string, readonly string[]>;
export type WxMenuType = keyof typeof WX_MENU_TYPES;

/** The action types' names on screen. */
export const WX_MENU_TYPE_LABELS: Record<WxMenuType, Text2> = {
  click: L('点击推事件', 'Click (reply)'),
  view: L('跳转网页', 'Open a web page'),
  scancode_push: L('扫码推事件', 'Scan a code'),
  scancode_waitmsg: L('扫码推事件且弹出“消息接收中”提示框', 'Scan a code and wait for a message'),
  pic_sysphoto: L('弹出系统拍照发图', 'Take a photo'),
  pic_photo_or_album: L('弹出拍照或者相册发图', 'Photo or album'),
  pic_weixin: L('弹出微信相册发图器', 'WeChat album'),
  location_select: L('弹出地理位置选择器', 'Send a location'),
  miniprogram: L('跳转小程序', 'Open the mini-program'),
  article_view_limited: L('跳转图文消息', 'Open a published article'),
};

/** A button of WeChat's menu JSON (`{ "button": [...] }`), as sent to `cgi-bin/menu/create`. */
export interface WxMenuButton {
  type?: string;
  name?: string;
  key?: string;
  url?: string;
  appid?: string;
  pagepath?: string;
  article_id?: string;
  sub_button?: WxMenuButton[];
}
export interface WxMenu {
  button: WxMenuButton[];
}

/** Which button a problem is about: its place (0-based) among the top-level buttons and under it. */
export interface WxMenuProblem {
  /** `button[1].sub_button[0].name`: the offending button and field, as in the JSON */
  path: string;
  message: Text2;
}

const BUTTON_KEYS = ['type', 'name', 'key', 'url', 'appid', 'pagepath', 'article_id', 'media_id'] as const;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** 第2个菜单 / 第2个菜单的第1个子菜单 (Button 2 / Button 2, sub-button 1): a button as people count them. */
export function wxButtonName(i: number, j?: number): Text2 {
  return j === undefined
    ? L(`第${i + 1}个菜单`, `Button ${i + 1}`)
    : L(`第${i + 1}个菜单的第${j + 1}个子菜单`, `Button ${i + 1}, sub-button ${j + 1}`);
}
const at = (where: Text2, zh: string, en: string): Text2 => L(`${where.zh}:${zh}`, `${where.en}: ${en}`);

function buttonProblem(b: unknown, path: string, where: Text2, sub: boolean): WxMenuProblem | null {
  const p = (field: string, zh: string, en: string) => ({
    path: `${path}.${field}`,
    message: at(where, zh, en),
  });
  if (!isObject(b)) return { path, message: at(where, '格式不正确', 'is not a button object') };
  for (const k of BUTTON_KEYS)
    if (b[k] !== undefined && typeof b[k] !== 'string') return p(k, `${k} 须为文本`, `${k} must be text`);
  const name = typeof b.name === 'string' ? b.name : '';
  if (!name.trim()) return p('name', '请填写菜单名称', 'enter the button’s name');
  const nameMax = sub ? WX_MENU_LIMITS.subName : WX_MENU_LIMITS.name;
  const bytes = utf8Bytes(name);
  if (bytes > nameMax)
    return p(
      'name',
      `菜单名称不能超过 ${nameMax} 个字节(一个汉字 3 个字节,当前 ${bytes} 个字节)`,
      `the name may be at most ${nameMax} bytes (a Chinese character is 3; now ${bytes})`,
    );
  const subs = b.sub_button;
  if (subs !== undefined && !Array.isArray(subs))
    return p('sub_button', '子菜单须为列表', 'sub_button must be a list');
  if (!sub && Array.isArray(subs) && subs.length > 0) {
    if (subs.length > WX_MENU_LIMITS.subButtons)
      return p(
        'sub_button',
        `子菜单最多 ${WX_MENU_LIMITS.subButtons} 个`,
        `at most ${WX_MENU_LIMITS.subButtons} sub-buttons`,
      );
    for (let j = 0; j < subs.length; j++) {
      const problem = buttonProblem(
        subs[j],
        `${path}.sub_button[${j}]`,
        wxButtonName(Number(/\d+/.exec(path)?.[0]), j),
        true,
      );
      if (problem) return problem;
    }
    return null;
  }
  if (sub && Array.isArray(subs) && subs.length > 0)
    return p('sub_button', '子菜单下不能再有子菜单', 'a sub-button has no sub-buttons');
  const type = typeof b.type === 'string' ? b.type : '';
  if (!type) return p('type', '请选择菜单类型', 'choose the button’s type');
  if (!Object.hasOwn(WX_MENU_TYPES, type))
    return p('type', `不支持的菜单类型 ${type}`, `unknown button type ${type}`);
  for (const need of WX_MENU_TYPES[type as WxMenuType]) {
    const v = typeof b[need] === 'string' ? (b[need] as string).trim() : '';
    if (!v) return p(need, `请填写 ${need}`, `enter its ${need}`);
  }
  if (typeof b.key === 'string' && utf8Bytes(b.key) > WX_MENU_LIMITS.key)
    return p(
      'key',
      `key 不能超过 ${WX_MENU_LIMITS.key} 个字节`,
      `the key may be at most ${WX_MENU_LIMITS.key} bytes`,
    );
  if (typeof b.url === 'string' && b.url) {
    if (utf8Bytes(b.url) > WX_MENU_LIMITS.url)
      return p(
        'url',
        `网址不能超过 ${WX_MENU_LIMITS.url} 个字节`,
        `the URL may be at most ${WX_MENU_LIMITS.url} bytes`,
      );
    if (!/^https?:\/\/[^\s/?#]+[^\s]*$/i.test(b.url))
      return p('url', '网址须以 http:// 或 https:// 开头', 'the URL must start with http:// or https://');
  }
  if (type === 'miniprogram' && !new RegExp(WX_APPID).test(String(b.appid)))
    return p('appid', '小程序 appid 格式不正确', 'the mini-program’s appid has an incorrect format');
  if (typeof b.pagepath === 'string' && utf8Bytes(b.pagepath) > WX_MENU_LIMITS.url)
    return p('pagepath', '小程序页面路径过长', 'the mini-program page path is too long');
  if (typeof b.article_id === 'string' && !/^[\w-]{1,128}$/.test(b.article_id))
    return p('article_id', 'article_id 格式不正确', 'the article_id has an incorrect format');
  return null;
}

/**
 * The first thing WeChat would refuse in a menu (`{ "button": [...] }`), or null: at most 3 top-level buttons
 * with at most 5 sub-buttons, names ≤ 16 bytes top-level and ≤ 60 below, key ≤ 128 and url ≤ 1024 bytes (UTF-8),
 * and the fields each of the ten action types needs. The editor checks with it before sending; the server
 * again before releasing.
 */
export function wxMenuProblem(menu: unknown): WxMenuProblem | null {
  if (!isObject(menu) || !Array.isArray(menu.button))
    return { path: 'button', message: L('菜单须为 {"button": [...]} 格式', 'A menu is {"button": [...]}') };
  const buttons = menu.button;
  if (buttons.length === 0)
    return { path: 'button', message: L('请至少添加一个菜单', 'Add at least one button') };
  if (buttons.length > WX_MENU_LIMITS.buttons)
    return {
      path: 'button',
      message: L(
        `一级菜单最多 ${WX_MENU_LIMITS.buttons} 个`,
        `At most ${WX_MENU_LIMITS.buttons} top-level buttons`,
      ),
    };
  for (let i = 0; i < buttons.length; i++) {
    const problem = buttonProblem(buttons[i], `button[${i}]`, wxButtonName(i), false);
    if (problem) return problem;
  }
  return null;
}

/**
 * A checked menu as WeChat takes it: each button's own keys in the order they were written, nothing else (a
 * button with sub-buttons keeps its name and them alone).
 */
export function wxMenuClean(menu: WxMenu): WxMenu {
  const clean = (b: WxMenuButton, sub: boolean): WxMenuButton => {
    const subs = !sub && Array.isArray(b.sub_button) && b.sub_button.length > 0 ? b.sub_button : undefined;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(b)) {
      if (k === 'sub_button') {
        if (subs) out.sub_button = subs.map((s) => clean(s, true));
      } else if ((BUTTON_KEYS as readonly string[]).includes(k) && (!subs || k === 'name')) out[k] = v;
    }
    return out as WxMenuButton;
  };
  return { button: menu.button.map((b) => clean(b, false)) };
}

/**
 * Where the problem WeChat named by its error code lies (40016 buttons, 40018 a name, 40019 a key, 40023
 * sub-buttons, 40027 a url…): the button of the menu that is furthest past (or nearest to) that limit, as
 * WeChat's answer names none.
 */
export function wxMenuErrorButton(menu: WxMenu, errcode: number): string | null {
  const field = (
    {
      40018: 'name',
      40019: 'key',
      40022: 'sub_button',
      40023: 'sub_button',
      40027: 'url',
      40054: 'url',
      40055: 'url',
      40017: 'type',
    } as Record<number, string>
  )[errcode];
  if (!field) return null;
  let best: { path: string; share: number } | null = null;
  const look = (b: WxMenuButton, path: string, sub: boolean) => {
    const v = field === 'sub_button' ? (b.sub_button?.length ?? 0) : b[field as 'name'];
    if (v === undefined) return;
    const limit =
      field === 'name'
        ? sub
          ? WX_MENU_LIMITS.subName
          : WX_MENU_LIMITS.name
        : field === 'key'
          ? WX_MENU_LIMITS.key
          : field === 'url'
            ? WX_MENU_LIMITS.url
            : WX_MENU_LIMITS.subButtons;
    const share = typeof v === 'number' ? v / limit : field === 'type' ? 1 : utf8Bytes(String(v)) / limit;
    if (!best || share > best.share) best = { path: `${path}.${field}`, share };
  };
  for (const [i, b] of menu.button.entries()) {
    look(b, `button[${i}]`, false);
    for (const [j, s] of (b.sub_button ?? []).entries()) look(s, `button[${i}].sub_button[${j}]`, true);
  }
  return (best as { path: string } | null)?.path ?? null;
}

/** A rule's keywords: separated by commas (, or ,), semicolons or spaces; compared without case. */
export const wxKeywords = (text: unknown): string[] =>
  String(text ?? '')
    .split(/[,,;;\s]+/)
    .map((k) => k.trim())
    .filter(Boolean);

/** An auto-reply rule as the matcher reads it. */
export interface WxReplyRule {
  id: string;
  kind: string;
  keywords?: string | null;
  matchMode?: string | null;
  enabled?: number | string | null;
}

/**
 * Which enabled rule answers: a subscription, the subscribe rule; a text, a keyword rule whose keyword it
 * equals (full match) first, then one whose keyword it contains (partial match), else the default rule.
 * Of several, the first in `rules`' order.
 */
export function wxReplyFor<R extends WxReplyRule>(
  rules: readonly R[],
  input: { event: 'subscribe' } | { text: string },
): R | undefined {
  const on = rules.filter((r) => Number(r.enabled ?? 1) === 1);
  if ('event' in input) return on.find((r) => String(r.kind) === WX_REPLY_KIND.subscribe);
  const text = input.text.trim().toLowerCase();
  const keyword = on.filter((r) => String(r.kind) === WX_REPLY_KIND.keyword);
  return (
    keyword.find((r) => wxKeywords(r.keywords).some((k) => k.toLowerCase() === text)) ??
    keyword.find(
      (r) =>
        String(r.matchMode) === WX_MATCH.partial &&
        wxKeywords(r.keywords).some((k) => text.includes(k.toLowerCase())),
    ) ??
    on.find((r) => String(r.kind) === WX_REPLY_KIND.default)
  );
}

/** The first keyword `rule` shares with another enabled keyword rule of `others` (compared without case). */
export function wxKeywordClash(rule: WxReplyRule, others: readonly WxReplyRule[]): string | null {
  if (String(rule.kind) !== WX_REPLY_KIND.keyword || Number(rule.enabled ?? 1) !== 1) return null;
  const mine = new Map(wxKeywords(rule.keywords).map((k) => [k.toLowerCase(), k]));
  for (const o of others) {
    if (o.id === rule.id || String(o.kind) !== WX_REPLY_KIND.keyword || Number(o.enabled ?? 1) !== 1)
      continue;
    for (const k of wxKeywords(o.keywords)) if (mine.has(k.toLowerCase())) return mine.get(k.toLowerCase())!;
  }
  return null;
}

/**
 * WeChat's error codes (errcode) as people read them. 45009 (the day's quota used up) is offered the
 * account's 清空调用次数 (cgi-bin/clear_quota, a few times a month).
 */
export const WX_ERRORS: Readonly<Record<number, Text2>> = {
  [-1]: L('微信系统繁忙,请稍后再试', 'WeChat is busy; try again later'),
  40001: L(
    '公众号的 AppSecret 不正确或调用凭证已失效',
    'The account’s AppSecret is wrong or its access token has expired',
  ),
  40002: L('不合法的凭证类型', 'Invalid grant type'),
  40013: L('AppID 不正确,请检查公众号账号的 AppID', 'Invalid AppID: check the account’s AppID'),
  40014: L('调用凭证不合法', 'Invalid access token'),
  40016: L('菜单按钮个数不合法', 'Invalid number of buttons'),
  40017: L('菜单按钮类型不合法', 'Invalid button type'),
  40018: L('菜单按钮名字长度不合法', 'Invalid button name length'),
  40019: L('菜单按钮 key 长度不合法', 'Invalid button key length'),
  40022: L('子菜单按钮个数不合法', 'Invalid number of sub-buttons'),
  40023: L('子菜单按钮个数不合法', 'Invalid number of sub-buttons'),
  40027: L('菜单按钮网址长度不合法', 'Invalid button URL length'),
  40003: L('不合法的 OpenID,该用户未关注本公众号', 'Invalid OpenID: the user does not follow this account'),
  40125: L('AppSecret 不正确', 'Invalid AppSecret'),
  40164: L(
    '调用接口的 IP 地址不在公众号的白名单中',
    'The server’s IP address is not on the account’s whitelist',
  ),
  41001: L('缺少调用凭证', 'The access token is missing'),
  42001: L('调用凭证已过期', 'The access token has expired'),
  43004: L('该用户未关注公众号', 'The user does not follow the account'),
  45009: L(
    '接口调用次数已达今日上限,可在公众号账号中清空调用次数',
    'The API’s daily quota is used up; the account’s “Clear API quota” resets it',
  ),
  45015: L(
    '用户超过 48 小时未与公众号互动,无法发送客服消息',
    'The user has not written within 48 hours: no customer-service message can be sent',
  ),
  45047: L('客服消息下行条数超过上限', 'Too many customer-service messages to this user'),
  46003: L('菜单不存在', 'The menu does not exist'),
  48001: L('公众号没有该接口的权限', 'The account is not authorised for this API'),
  88000: L('没有留言权限', 'No comment permission'),
};

/** An errcode as people read it: the known text, or WeChat's own errmsg with its code. */
export function wxErrorText(errcode: number, errmsg?: string): Text2 {
  const known = WX_ERRORS[errcode];
  if (known) return L(`${known.zh}(微信错误码 ${errcode})`, `${known.en} (WeChat error ${errcode})`);
  return L(`微信返回错误 ${errcode}:${errmsg ?? ''}`, `WeChat answered error ${errcode}: ${errmsg ?? ''}`);
}

/**
 * WeChat's customer-service window (客服消息): a follower may be written to for 48 hours after they last wrote
 * to the account. Whether that is now, from the time of their last message (ms or a Date; none: never).
 */
export const WX_REPLY_WINDOW_MS = 48 * 3_600_000;
export function wxReplyOpen(lastReceived: number | Date | null | undefined, now = Date.now()): boolean {
  if (lastReceived === null || lastReceived === undefined) return false;
  const at = typeof lastReceived === 'number' ? lastReceived : lastReceived.getTime();
  return now - at <= WX_REPLY_WINDOW_MS;
}

/** The permanent materials' types (wx_material_type). */
export const WX_MATERIAL = { image: '1', voice: '2', video: '3', thumb: '4' } as const;

/**
 * WeChat's limits on permanent materials (永久素材), checked before anything is sent: the type WeChat names, the
 * largest file and the kinds of file it takes (as the content shows them, never by the name).
 */
export const WX_MATERIAL_RULES: Readonly<
  Record<
    string,
    { wx: 'image' | 'voice' | 'video' | 'thumb'; maxBytes: number; kinds: readonly string[]; limit: Text2 }
  >
> = {
  [WX_MATERIAL.image]: {
    wx: 'image',
    maxBytes: 10 * 1024 * 1024,
    kinds: ['png', 'jpg', 'gif', 'bmp'],
    limit: L('图片不超过 10MB,支持 bmp/png/jpeg/jpg/gif', 'An image: at most 10 MB, bmp/png/jpeg/jpg/gif'),
  },
  [WX_MATERIAL.voice]: {
    wx: 'voice',
    maxBytes: 2 * 1024 * 1024,
    kinds: ['mp3', 'wma', 'wav', 'amr'],
    limit: L('语音不超过 2MB,支持 mp3/wma/wav/amr', 'A voice: at most 2 MB, mp3/wma/wav/amr'),
  },
  [WX_MATERIAL.video]: {
    wx: 'video',
    maxBytes: 10 * 1024 * 1024,
    kinds: ['mp4'],
    limit: L('视频不超过 10MB,支持 mp4', 'A video: at most 10 MB, mp4'),
  },
  [WX_MATERIAL.thumb]: {
    wx: 'thumb',
    maxBytes: 64 * 1024,
    kinds: ['jpg'],
    limit: L('缩略图不超过 64KB,支持 jpg', 'A thumbnail: at most 64 KB, jpg'),
  },
};

/** What WeChat would refuse in a material of `type` holding a file of `kind` (null: none known) and `bytes`. */
export function wxMaterialProblem(type: string, kind: string | null, bytes: number): Text2 | null {
  const rule = WX_MATERIAL_RULES[type];
  if (!rule) return L('素材类型无效', 'Invalid material type');
  if (bytes <= 0 || bytes > rule.maxBytes || !kind || !rule.kinds.includes(kind)) return rule.limit;
  return null;
}

/** What a WeChat action answers when the tenant has no public account configured. */
export const WX_NO_ACCOUNT = L(
  '尚未配置公众号:请先在“公众号账号”中添加公众号(AppID、AppSecret、Token)',
  'No public account is configured: add one under “Public accounts” first (AppID, AppSecret, Token)',
);

const accountRef = (opts: Partial<FieldDef> = {}) =>
  ref('accountId', L('公众号', 'Public account'), 'wxAccount', WECHAT_DEMO.accountId, {
    required: true,
    ...opts,
  });

/**
 * 公众号账号: a tenant's public accounts. The AppSecret and the EncodingAESKey are write-only (never answered,
 * never logged; an empty value on edit keeps them); the Token signs WeChat's callbacks to
 * `/api/dfem-hope-wx/open/{appId}`. The follower synchronisation's progress is kept on the account.
 */
export const wxAccountResource = wxResource(
  'wxAccount',
  'hope_wx_account',
  'WechatOutlined',
  L('公众号账号', 'Public accounts'),
  'account',
  'wxAccount',
  [
    text('name', L('公众号名称', 'Name'), 30, { required: true, search: 'like', example: '幸福村公众号' }),
    text('appId', L('AppID', 'AppID'), 18, {
      required: true,
      pattern: WX_APPID,
      patternMessage: L('AppID 须为 wx 加 16 位十六进制字符', 'An AppID is wx and 16 hexadecimal digits'),
      search: 'equal',
      example: 'wx5c0d3e4f5a6b7001',
    }),
    text('appSecret', L('AppSecret', 'AppSecret'), 32, {
      secret: true,
      list: false,
      pattern: '^[0-9a-zA-Z]{32}$',
      patternMessage: L('AppSecret 为 32 位字母或数字', 'An AppSecret is 32 letters or digits'),
      example: '0123456789abcdef0123456789abcdef',
    }),
    text('token', L('Token(令牌)', 'Token'), 32, {
      required: true,
      list: false,
      pattern: '^[A-Za-z0-9]{3,32}$',
      patternMessage: L('Token 为 3 到 32 位字母或数字', 'A token is 3 to 32 letters or digits'),
      example: 'happyvillage',
    }),
    text('aesKey', L('EncodingAESKey', 'EncodingAESKey'), 43, {
      secret: true,
      list: false,
      pattern: '^[A-Za-z0-9]{43}$',
      patternMessage: L('EncodingAESKey 为 43 位字母或数字', 'An EncodingAESKey is 43 letters or digits'),
    }),
    { name: 'qrUrl', label: L('二维码', 'QR code'), type: 'image', max: 255, excel: false },
    dict('syncState', L('粉丝同步', 'Follower sync'), WECHAT_DICT.wx_sync_state, {
      readOnly: true,
      form: false,
      search: undefined,
    }),
    {
      name: 'syncDone',
      label: L('已同步粉丝', 'Followers synchronised'),
      type: 'int',
      readOnly: true,
      form: false,
      min: 0,
      max: 100_000_000,
    },
    {
      name: 'syncTotal',
      label: L('粉丝总数', 'Followers'),
      type: 'int',
      readOnly: true,
      form: false,
      min: 0,
      max: 100_000_000,
    },
    text('syncNextOpenid', L('同步位置', 'Sync position'), 64, {
      readOnly: true,
      form: false,
      list: false,
      view: false,
    }),
    text('syncError', L('同步错误', 'Sync error'), 500, { readOnly: true, form: false, list: false }),
    remark(),
  ],
  { unique: ['appId'], select: { label: 'name', search: ['name', 'appId'] } },
);

/** 自定义菜单: the menu last released to an account (WeChat's JSON, `{ "button": [...] }`), written by release alone. */
export const wxMenuResource = wxResource(
  'wxMenu',
  'hope_wx_menu',
  'MenuOutlined',
  L('自定义菜单', 'Custom menu'),
  'menu',
  'wxMenu',
  [
    accountRef(),
    {
      name: 'menuJson',
      label: L('菜单 JSON', 'Menu JSON'),
      type: 'json',
      max: 20_000,
      required: true,
      span: 24,
      list: false,
      example: '{"button":[{"type":"click","name":"今日歌曲","key":"V1001_TODAY_MUSIC"}]}',
    },
    { name: 'releaseTime', label: L('发布时间', 'Released at'), type: 'datetime' },
  ],
  { readOnly: true, defaultSort: { field: 'releaseTime', desc: true } },
);

/** 自动回复: on subscribe, by keyword (full or partial match, several keywords a rule) and by default. */
export const wxAutoReplyResource = wxResource(
  'wxAutoReply',
  'hope_wx_auto_reply',
  'MessageOutlined',
  L('自动回复', 'Auto-replies'),
  'autoReply',
  'wxAutoReply',
  [
    accountRef(),
    dict('kind', L('回复类型', 'Kind'), WECHAT_DICT.wx_reply_kind, { required: true, default: '2' }),
    text('keywords', L('关键词', 'Keywords'), 200, {
      search: 'like',
      requiredWhen: {
        field: 'kind',
        is: [WX_REPLY_KIND.keyword],
        message: L('关键词回复须填写关键词', 'A keyword rule needs its keywords'),
      },
    }),
    dict('matchMode', L('匹配方式', 'Match'), WECHAT_DICT.wx_match_mode, {
      requiredWhen: {
        field: 'kind',
        is: [WX_REPLY_KIND.keyword],
        message: L('关键词回复须选择匹配方式', 'A keyword rule needs its match mode'),
      },
    }),
    area('replyContent', L('回复内容', 'Reply'), 600, {
      required: true,
      list: true,
      example: '欢迎关注幸福村公众号!',
    }),
    flag('enabled', L('启用', 'Enabled'), { default: 1, search: 'equal' }),
  ],
);

/** 粉丝: an account's followers, written by the synchronisation and the callbacks; a remark is pushed to WeChat. */
export const wxUserResource = wxResource(
  'wxUser',
  'hope_wx_user',
  'TeamOutlined',
  L('粉丝管理', 'Followers'),
  'user',
  'wxUser',
  [
    accountRef(),
    text('openid', L('OpenID', 'OpenID'), 64, {
      required: true,
      search: 'equal',
      example: 'o6_bmjrPTlm6_2sgVt7hMZOPf001',
    }),
    text('nickname', L('昵称', 'Nickname'), 100, { search: 'like' }),
    text('remark', L('备注名', 'Remark'), 30, { search: 'like' }),
    flag('subscribe', L('已关注', 'Subscribed'), { search: 'equal', default: 1 }),
    { name: 'subscribeTime', label: L('关注时间', 'Subscribed at'), type: 'datetime' },
    text('tagIds', L('标签', 'Tags'), 200, { list: false }),
    text('unionid', L('UnionID', 'UnionID'), 64, { list: false }),
  ],
  { readOnly: true, unique: [['accountId', 'openid']], defaultSort: { field: 'subscribeTime', desc: true } },
);

/** 消息: every message and event WeChat delivered, and the passive replies given to them. */
export const wxMsgResource = wxResource(
  'wxMsg',
  'hope_wx_msg',
  'InboxOutlined',
  L('消息管理', 'Messages'),
  'msg',
  'wxMsg',
  [
    accountRef(),
    text('openid', L('OpenID', 'OpenID'), 64, {
      required: true,
      search: 'equal',
      example: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M',
    }),
    dict('direction', L('方向', 'Direction'), WECHAT_DICT.wx_msg_direction, { required: true }),
    text('msgType', L('消息类型', 'Type'), 32, { required: true, search: 'equal', example: 'text' }),
    text('event', L('事件', 'Event'), 64),
    area('content', L('内容', 'Content'), 4000, { list: true }),
    text('msgId', L('MsgId', 'MsgId'), 64, { list: false }),
    text('dedupKey', L('去重键', 'Dedup key'), 160, {
      list: false,
      view: false,
      example: 'msg-1000000000000000001',
    }),
    { name: 'msgTime', label: L('消息时间', 'Sent at'), type: 'datetime' },
  ],
  { readOnly: true, unique: ['dedupKey'], defaultSort: { field: 'msgTime', desc: true } },
);

/**
 * 素材管理: an account's permanent materials (image, voice, video, thumbnail) as WeChat keeps them: uploaded
 * through `wxMaterial/upload` (WeChat's limits checked first), removed through `del/{id}` (WeChat first), a
 * video's details from `materialVideo`, a file from `materialOther` (a blob).
 */
export const wxMaterialResource = wxResource(
  'wxMaterial',
  'hope_wx_material',
  'FolderOutlined',
  L('素材管理', 'Materials'),
  'material',
  'wxMaterial',
  [
    accountRef(),
    dict('type', L('素材类型', 'Type'), WECHAT_DICT.wx_material_type, { required: true }),
    text('name', L('文件名', 'File name'), 128, { search: 'like' }),
    text('mediaId', L('media_id', 'media_id'), 128, {
      required: true,
      list: false,
      example: 'sandboxMediaId000000000001',
    }),
    text('url', L('图片地址', 'Image URL'), 500, { list: false }),
    text('title', L('视频标题', 'Video title'), 64),
    area('introduction', L('视频描述', 'Video description'), 200),
    {
      name: 'size',
      label: L('大小', 'Size'),
      type: 'int',
      min: 0,
      max: 100_000_000,
      unit: L('字节', 'bytes'),
    },
  ],
  { readOnly: true, unique: [['accountId', 'mediaId']] },
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
  },
  dicts: WECHAT_DICTS,
});
