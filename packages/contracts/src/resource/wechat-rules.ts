import { L, type Text2 } from './types';

/**
 * WeChat's own limits and behaviour for the public account (shared/design/domain.md "WeChat public
 * account"), worded once for the server and the browser: the custom menu's rules, the auto-replies'
 * matching, WeChat's error codes, the reply window and the materials' limits. They are facts of the
 * platform, not choices; the resources that keep what they check are in wechat-mp.ts.
 */

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
