import { SYSTEM_DICT } from './dicts';
import type { FieldDef, ResourceDef } from './types';

/** System administration resources that are plain lists (spec §2 generic list pages). */

export const paramResource: ResourceDef = {
  key: 'param',
  label: { zh: '参数管理', en: 'Parameters' },
  service: 'dfem-system',
  path: 'param',
  route: '/system/param',
  permission: 'param',
  tenant: false,
  unique: ['paramKey'],
  fields: [
    {
      name: 'paramName',
      label: { zh: '参数名称', en: 'Parameter name' },
      type: 'text',
      required: true,
      requiredOnBlur: true,
      max: 255,
      search: 'like',
    },
    {
      name: 'paramKey',
      label: { zh: '参数键名', en: 'Parameter key' },
      type: 'text',
      required: true,
      requiredOnBlur: true,
      max: 255,
      search: 'like',
    },
    {
      name: 'paramValue',
      label: { zh: '参数键值', en: 'Parameter value' },
      type: 'textarea',
      required: true,
      requiredOnBlur: true,
      max: 2000,
      span: 24,
    },
    {
      name: 'remark',
      label: { zh: '备注', en: 'Remark' },
      type: 'textarea',
      max: 255,
      span: 24,
      list: false,
    },
  ],
};

export const postResource: ResourceDef = {
  key: 'post',
  label: { zh: '岗位管理', en: 'Posts' },
  service: 'dfem-system',
  path: 'post',
  route: '/system/post',
  permission: 'post',
  tenant: true,
  unique: ['postCode'],
  defaultSort: { field: 'sort' },
  fields: [
    {
      name: 'category',
      label: { zh: '岗位类型', en: 'Post category' },
      type: 'dict',
      dict: SYSTEM_DICT.post_category,
      required: true,
      search: 'equal',
    },
    {
      name: 'postCode',
      label: { zh: '岗位编号', en: 'Post code' },
      type: 'text',
      required: true,
      max: 12,
      pattern: '[A-Za-z0-9_-]+',
      search: 'like',
    },
    {
      name: 'postName',
      label: { zh: '岗位名称', en: 'Post name' },
      type: 'text',
      required: true,
      max: 64,
      search: 'like',
    },
    {
      name: 'sort',
      label: { zh: '岗位排序', en: 'Sort' },
      type: 'int',
      required: true,
      min: 0,
      max: 100000,
      default: 0,
    },
    {
      name: 'remark',
      label: { zh: '岗位描述', en: 'Description' },
      type: 'textarea',
      max: 255,
      span: 24,
      list: false,
    },
  ],
};

export const tenantPackageResource: ResourceDef = {
  key: 'tenantPackage',
  label: { zh: '租户产品包', en: 'Tenant packages' },
  service: 'dfem-system',
  path: 'tenant-package',
  route: '/system/tenantpackage',
  permission: 'tenant_package',
  tenant: false,
  view: false,
  dialogWidth: 600,
  pageSize: 10,
  savedMessage: { zh: '操作成功!', en: 'operation successful!' },
  fields: [
    {
      name: 'packageName',
      label: { zh: '产品包名称', en: 'Package name' },
      type: 'text',
      required: true,
      requiredMessage: { zh: '请输入产品包名称', en: 'please enter package name' },
      max: 50,
      search: 'like',
      span: 24,
    },
    {
      name: 'menuId',
      label: { zh: '菜单权限', en: 'Menus' },
      type: 'ids',
      tree: 'menu',
      required: true,
      requiredMessage: { zh: '请选择菜单', en: 'please select menu' },
      list: false,
      span: 24,
    },
    { name: 'remark', label: { zh: '备注', en: 'Remark' }, type: 'textarea', max: 255, span: 24 },
  ],
};

export const noticeResource: ResourceDef = {
  key: 'notice',
  label: { zh: '通知公告', en: 'Notices' },
  service: 'dfem-desk',
  path: 'notice',
  route: '/desk/notice',
  permission: 'notice',
  tenant: true,
  fields: [
    {
      name: 'title',
      label: { zh: '通知标题', en: 'Title' },
      type: 'text',
      required: true,
      max: 255,
      search: 'like',
      span: 24,
    },
    {
      name: 'category',
      label: { zh: '通知类型', en: 'Category' },
      type: 'dict',
      dict: SYSTEM_DICT.notice,
      required: true,
      search: 'equal',
    },
    { name: 'releaseTime', label: { zh: '通知日期', en: 'Release date' }, type: 'datetime', required: true },
    {
      name: 'content',
      label: { zh: '通知内容', en: 'Content' },
      type: 'textarea',
      max: 2000,
      span: 24,
      list: false,
    },
  ],
};

/** Grant types a client row may name: ours and the rest of the family's (an unknown name is refused). */
const GRANT_TYPES = 'password|captcha|refresh_token|authorization_code|social|client_credentials|implicit';

export const clientResource: ResourceDef = {
  key: 'client',
  label: { zh: '应用管理', en: 'Clients' },
  service: 'dfem-system',
  path: 'client',
  route: '/system/client',
  permission: 'client',
  tenant: false,
  unique: ['clientId'],
  fields: [
    {
      name: 'clientId',
      label: { zh: '应用ID', en: 'Client id' },
      type: 'text',
      required: true,
      max: 48,
      pattern: '[A-Za-z0-9_-]+',
      search: 'like',
    },
    // write-only: the server stores an argon2 hash and never answers it
    {
      name: 'clientSecret',
      label: { zh: '应用密钥', en: 'Client secret' },
      type: 'text',
      secret: true,
      // the family's client form requires its 客户端密钥 to save: it is shown this, and sends it back
      secretShown: '********',
      min: 8,
      max: 64,
      list: false,
    },
    {
      name: 'authorizedGrantTypes',
      label: { zh: '授权类型', en: 'Grant types' },
      type: 'text',
      required: true,
      max: 255,
      // the family's grant names; the token endpoint answers password, captcha and refresh_token, and says
      // of the others that they are not configured
      pattern: `(${GRANT_TYPES})(,(${GRANT_TYPES}))*`,
      default: 'refresh_token,password,captcha',
    },
    {
      name: 'scope',
      label: { zh: '授权范围', en: 'Scope' },
      type: 'text',
      required: true,
      max: 255,
      default: 'all',
    },
    {
      name: 'accessTokenValidity',
      label: { zh: '令牌秒数', en: 'Access token seconds' },
      type: 'int',
      required: true,
      min: 60,
      max: 31536000,
      default: 3600,
    },
    {
      name: 'refreshTokenValidity',
      label: { zh: '刷新令牌秒数', en: 'Refresh token seconds' },
      type: 'int',
      required: true,
      min: 60,
      max: 31536000,
      default: 604800,
    },
    {
      name: 'webServerRedirectUri',
      label: { zh: '回调地址', en: 'Redirect URI' },
      type: 'text',
      max: 255,
      list: false,
    },
    {
      name: 'additionalInformation',
      label: { zh: '附加说明', en: 'Additional information' },
      type: 'textarea',
      max: 4096,
      list: false,
      span: 24,
    },
  ],
};

export const topMenuResource: ResourceDef = {
  key: 'topMenu',
  label: { zh: '顶部菜单', en: 'Top menus' },
  service: 'dfem-system',
  path: 'topmenu',
  route: '/system/topmenu',
  permission: 'topmenu',
  tenant: true,
  defaultSort: { field: 'sort' },
  fields: [
    {
      name: 'code',
      label: { zh: '菜单编号', en: 'Code' },
      type: 'text',
      required: true,
      max: 255,
      search: 'like',
    },
    {
      name: 'name',
      label: { zh: '菜单名称', en: 'Name' },
      type: 'text',
      required: true,
      max: 255,
      search: 'like',
    },
    { name: 'source', label: { zh: '菜单图标', en: 'Icon' }, type: 'text', max: 255, default: '' },
    {
      name: 'sort',
      label: { zh: '菜单排序', en: 'Sort' },
      type: 'int',
      required: true,
      min: 0,
      max: 100000,
      default: 0,
    },
  ],
};

/**
 * Dictionaries (spec §2, §5, §7): one dictionary is a parent row (parentId '0', dictKey '-1') naming it by
 * `code`; its entries are rows below it that share the code and may nest (a tree by parentId). Both kinds
 * are served by the resource engine (list: the whole tree, detail, submit, remove) with the binding's hooks
 * and endpoints (apps/server/src/modules/system/dict.ts: parent-list, child-list, and the pickers tree and
 * dictionary that every signed-in user reads); the screens are their own (features/system/dict), over these
 * definitions. The rules a field cannot say are the binding's: an entry's key is required and its code is its
 * parent's, a dictionary's code is required and its key is -1; a code is unique among dictionaries and a key
 * within its dictionary; removing a dictionary removes its entries, and a sealed row refuses it. Messages are
 * the spec's (§5: 'please enter dictionary number/name/sort/key', 'please select sealed'); the labels are its
 * words, capitalised as every label is.
 */
const dictFields = (): FieldDef[] => [
  {
    name: 'parentId',
    label: { zh: '上级字典', en: 'Parent dictionary' },
    type: 'ref',
    list: false,
  },
  {
    name: 'code',
    label: { zh: '字典编号', en: 'Dictionary number' },
    type: 'text',
    required: true,
    max: 255,
    requiredMessage: { zh: '请输入字典编号', en: 'please enter dictionary number' },
    search: 'like',
  },
  {
    name: 'dictValue',
    label: { zh: '字典名称', en: 'Dictionary name' },
    type: 'text',
    required: true,
    max: 255,
    requiredMessage: { zh: '请输入字典名称', en: 'please enter dictionary name' },
    // either language's value matches
    search: 'like',
  },
  // optional: where empty, an English screen shows the Chinese value
  { name: 'dictValueEn', label: { zh: '英文值', en: 'English value' }, type: 'text', max: 255 },
  {
    // required of an entry (the binding says so); a dictionary's key is -1 whatever is sent
    name: 'dictKey',
    label: { zh: '字典键值', en: 'Dictionary key' },
    type: 'text',
    max: 255,
    requiredMessage: { zh: '请输入字典键值', en: 'please enter dictionary key' },
  },
  {
    name: 'sort',
    label: { zh: '字典排序', en: 'Dictionary sort' },
    type: 'int',
    required: true,
    min: 0,
    max: 2_147_483_647,
    requiredMessage: { zh: '请输入字典排序', en: 'please enter dictionary sort' },
  },
  {
    // 0 no, 1 yes (a sealed entry is never removed)
    name: 'isSealed',
    label: { zh: '封存', en: 'Sealed' },
    type: 'switch',
    required: true,
    default: 0,
    example: 0,
    requiredMessage: { zh: '请选择封存', en: 'please select sealed' },
  },
  {
    name: 'remark',
    label: { zh: '字典备注', en: 'Dictionary remark' },
    type: 'text',
    max: 255,
    list: false,
    span: 24,
  },
];

/** Platform dictionaries (blade_dict): read by every tenant, changed by the platform tenant only. */
export const dictResource: ResourceDef = {
  key: 'dict',
  label: { zh: '字典管理', en: 'Dictionaries' },
  service: 'dfem-system',
  path: 'dict',
  route: '/system/dict',
  permission: 'dict',
  tenant: false,
  readByEveryTenant: true,
  tree: true,
  dialogWidth: 880,
  fields: dictFields(),
};

/** Business dictionaries (blade_dict_biz): each tenant's own. */
export const dictBizResource: ResourceDef = {
  key: 'dictBiz',
  label: { zh: '业务字典', en: 'Business dictionaries' },
  service: 'dfem-system',
  path: 'dict-biz',
  route: '/system/dictbiz',
  permission: 'dict_biz',
  tenant: true,
  tree: true,
  dialogWidth: 880,
  fields: dictFields(),
};

/** The form rules of the dictionary screens, by field name (the routes and the screens check the same). */
export const DICT_FIELDS = Object.fromEntries(dictFields().map((f) => [f.name, f])) as Record<
  'parentId' | 'code' | 'dictValue' | 'dictValueEn' | 'dictKey' | 'sort' | 'isSealed' | 'remark',
  FieldDef
>;

/** A region's messages beyond its fields' rules (the binding checks them; the screen says them first). */
export const REGION_MESSAGES = {
  parentMissing: { zh: '上级区划不存在', en: 'the parent region does not exist' },
  notUnderParent: {
    zh: '区划编号须以上级区划编号开头',
    en: 'the region code must start with its parent code',
  },
};

/** The parent code of the provinces. */
export const REGION_ROOT = '00';

/**
 * China's administrative divisions (spec §7 region): platform rows keyed by the division code (2 digits a
 * province, 4 a city, 6 a county, 9 a town, 12 a village), each below its parent's (`parentCode`, `00` for a
 * province) with the codes above it (`ancestors`, written by the server). Every tenant reads them, only the
 * platform tenant changes them; a removal deletes the row (no soft delete) and the table has no base
 * columns. The engine serves list, detail (`?code=`) and submit (a code that exists is edited); the binding
 * (apps/server/src/modules/system/region.ts) adds what a field cannot say — a code extends its parent's,
 * the parent exists, the ancestors follow it, a division with divisions below it stays, the family's `level`
 * — the spec's `remove?id=`, and the pickers every signed-in user reads (lazy-tree, select).
 */
export const regionResource: ResourceDef = {
  key: 'region',
  label: { zh: '行政区划', en: 'Regions' },
  service: 'dfem-system',
  path: 'region',
  route: '/system/region',
  permission: 'region',
  tenant: false,
  readByEveryTenant: true,
  idField: 'code',
  softDelete: false,
  baseColumns: false,
  fields: [
    {
      name: 'code',
      label: { zh: '区划编号', en: 'Region code' },
      type: 'text',
      required: true,
      pattern: '\\d{2,12}',
      patternMessage: { zh: '区划编号必须是2到12位数字', en: 'the region code must be 2 to 12 digits' },
      requiredMessage: { zh: '请输入区划编号', en: 'please enter region code' },
      example: '990001',
    },
    {
      name: 'parentCode',
      label: { zh: '上级区划', en: 'Parent region' },
      type: 'text',
      pattern: '\\d{2,12}',
      patternMessage: REGION_MESSAGES.parentMissing,
      default: REGION_ROOT,
      search: 'equal',
    },
    { name: 'ancestors', label: { zh: '祖级区划', en: 'Ancestors' }, type: 'text', max: 255, readOnly: true },
    {
      name: 'name',
      label: { zh: '区划名称', en: 'Region name' },
      type: 'text',
      required: true,
      max: 64,
      requiredMessage: { zh: '请输入区划名称', en: 'please enter region name' },
      search: 'like',
    },
    {
      name: 'regionLevel',
      label: { zh: '区划层级', en: 'Region level' },
      type: 'int',
      required: true,
      min: 1,
      max: 5,
      requiredMessage: { zh: '请选择区划层级', en: 'please select region level' },
      search: 'equal',
      example: 1,
    },
    { name: 'sort', label: { zh: '排序', en: 'Sort' }, type: 'int', min: 0, max: 2_147_483_647, default: 0 },
    { name: 'remark', label: { zh: '备注', en: 'Remark' }, type: 'text', max: 255 },
  ],
};
