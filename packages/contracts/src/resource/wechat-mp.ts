import { dictCodes, dictionary, numbered } from './dicts';
import { area, dict as dictField, flag, ref, remark, text } from './fields';
import { areaResource, type DictCode, type FieldDef, L, type Text2 } from './types';
import { WX_APPID, WX_REPLY_KIND } from './wechat-rules';

/**
 * 公众号 (the WeChat public account, spec §7 dfem-hope-wx): accounts, the custom menu, auto-replies,
 * followers, messages and materials — and WeChat's own limits and behaviour worded once for the server and
 * the browser. The area's folder (wechat.ts) lists these resources after the mini-program's banners and QR
 * codes. Domain: shared/design/domain.md "WeChat public account".
 */

/** The public account's dictionaries (part of the WeChat area's, wechat.ts). */
export const WECHAT_MP_DICTS = [
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

/** What a public-account field names its dictionary by: `WX_DICT.<code>`. */
export const WX_DICT = dictCodes(WECHAT_MP_DICTS);

/** The demo public account the seed always creates (tenant 000000; its secret lives in the sandbox seed). */
export const WX_DEMO = {
  accountId: '1190000000002520001',
  appId: 'wx5c0d3e4f5a6b7c8d',
  replyIds: ['1190000000002530001', '1190000000002530002', '1190000000002530003'],
} as const;

/** every dictionary of this area is a filter of its list */
const dict = (name: string, label: Text2, code: DictCode, opts: Partial<FieldDef> = {}): FieldDef =>
  dictField(name, label, code, { search: 'equal', ...opts });

const WX_SERVICE = 'dfem-hope-wx';
const wxResource = areaResource(WX_SERVICE, 'wechat');

/** What a WeChat action answers when the tenant has no public account configured. */
export const WX_NO_ACCOUNT = L(
  '尚未配置公众号:请先在“公众号账号”中添加公众号(AppID、AppSecret、Token)',
  'No public account is configured: add one under “Public accounts” first (AppID, AppSecret, Token)',
);

const accountRef = (opts: Partial<FieldDef> = {}) =>
  ref('accountId', L('公众号', 'Public account'), 'wxAccount', WX_DEMO.accountId, {
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
    dict('syncState', L('粉丝同步', 'Follower sync'), WX_DICT.wx_sync_state, {
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
    dict('kind', L('回复类型', 'Kind'), WX_DICT.wx_reply_kind, { required: true, default: '2' }),
    text('keywords', L('关键词', 'Keywords'), 200, {
      search: 'like',
      requiredWhen: {
        field: 'kind',
        is: [WX_REPLY_KIND.keyword],
        message: L('关键词回复须填写关键词', 'A keyword rule needs its keywords'),
      },
    }),
    dict('matchMode', L('匹配方式', 'Match'), WX_DICT.wx_match_mode, {
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
    dict('direction', L('方向', 'Direction'), WX_DICT.wx_msg_direction, { required: true }),
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
    dict('type', L('素材类型', 'Type'), WX_DICT.wx_material_type, { required: true }),
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
