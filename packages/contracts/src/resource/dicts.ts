import type { DictCode, DictDecl, DictItemDecl, Text2 } from './types';

/**
 * The platform dictionaries (blade_dict) the seed creates, declared once with their values in both
 * languages: the platform's here, each area's beside its definitions (its contracts file, listed on its
 * `defineArea`). The server keeps the table in line with every declaration (seed `dicts-<hash>`: a
 * dictionary or entry declared later reaches existing installs), writes `dict_value` (zh) and `dict_value_en`
 * (en) from here, and answers a dictionary in the caller's language (English where given, else the
 * Chinese). Keys, Chinese values, order and codes are what screens, tests and the spec rely on: change them
 * only with those.
 */

export type { DictDecl, DictItemDecl } from './types';

/** Entries keyed 1, 2, 3… in the order given. */
export const numbered = (pairs: readonly (readonly [zh: string, en: string])[]): DictItemDecl[] =>
  pairs.map(([zh, en], i) => ({ key: String(i + 1), zh, en }));

/** A dictionary's declaration: its code (kept as a literal type, so its handle is typed), name and entries. */
export const dictionary = <const C extends string>(
  code: C,
  label: Text2,
  items: readonly DictItemDecl[],
): DictDecl<C> => ({ code, label, items });

/**
 * The handles of a list of declared dictionaries, by code: `VILLAGE_DICT.ethnicity` is the code a field
 * names (`dict('ethnicity', label, VILLAGE_DICT.ethnicity)`). A field's dictionary is a `DictCode`, which
 * only a handle gives, so a code nobody declared does not compile.
 */
export function dictCodes<const D extends readonly DictDecl[]>(
  decls: D,
): { readonly [K in D[number]['code']]: DictCode } {
  return Object.fromEntries(decls.map((d) => [d.code, d.code])) as never;
}

const text = (zh: string, en: string): Text2 => ({ zh, en });
const dict = dictionary;

/** The system's dictionaries (seed step system-v1), in the order they are created. */
export const SYSTEM_DICTS = [
  dict(
    'sex',
    text('性别', 'Sex'),
    numbered([
      ['男', 'Male'],
      ['女', 'Female'],
      ['未知', 'Unknown'],
    ]),
  ),
  dict('yes_no', text('是否', 'Yes or no'), [
    { key: '0', zh: '否', en: 'No' },
    { key: '1', zh: '是', en: 'Yes' },
  ]),
  dict(
    'status',
    text('状态', 'Status'),
    numbered([
      ['正常', 'Normal'],
      ['停用', 'Disabled'],
    ]),
  ),
  dict(
    'menu_category',
    text('菜单类型', 'Menu type'),
    numbered([
      ['菜单', 'Menu'],
      ['按钮', 'Button'],
    ]),
  ),
  dict(
    'button_func',
    text('按钮功能', 'Button position'),
    numbered([
      ['工具栏', 'Toolbar'],
      ['操作栏', 'Row actions'],
      ['工具操作栏', 'Toolbar and row actions'],
    ]),
  ),
  dict(
    'notice',
    text('通知类型', 'Notice type'),
    numbered([
      ['发布通知', 'Release notice'],
      ['批转通知', 'Approved-and-forwarded notice'],
      ['转发通知', 'Forwarded notice'],
      ['指示通知', 'Instruction notice'],
      ['任命通知', 'Appointment notice'],
      ['决定通知', 'Decision notice'],
      ['通告', 'Circular'],
      ['公告', 'Announcement'],
    ]),
  ),
  dict(
    'data_scope_type',
    text('数据权限', 'Data scope'),
    numbered([
      ['全部可见', 'All data'],
      ['本人可见', 'Own data only'],
      ['所在机构可见', 'Own department'],
      ['所在机构及子级可见', 'Own department and below'],
      ['自定义', 'Custom'],
    ]),
  ),
  dict(
    'api_scope_type',
    text('接口权限', 'API scope'),
    numbered([
      ['系统接口', 'System API'],
      ['业务接口', 'Business API'],
    ]),
  ),
  dict(
    'post_category',
    text('岗位类型', 'Post category'),
    numbered([
      ['高层', 'Senior management'],
      ['中层', 'Middle management'],
      ['基层', 'Front line'],
      ['其他', 'Other'],
    ]),
  ),
  dict(
    'org_category',
    text('机构类型', 'Organisation type'),
    numbered([
      ['公司', 'Company'],
      ['部门', 'Department'],
      ['小组', 'Team'],
    ]),
  ),
  dict(
    'user_type',
    text('用户平台', 'User platform'),
    numbered([
      ['WEB', 'Web'],
      ['APP', 'App'],
      ['OTHER', 'Other'],
    ]),
  ),
  dict(
    'oss',
    text('对象存储', 'Object storage'),
    numbered([
      ['minio', 'MinIO'],
      ['qiniu', 'Qiniu'],
      ['ali', 'Alibaba Cloud'],
      ['tencent', 'Tencent Cloud'],
      ['local', 'Local disk'],
    ]),
  ),
  dict(
    'sms',
    text('短信服务', 'SMS service'),
    numbered([
      ['yunpian', 'Yunpian'],
      ['qiniu', 'Qiniu'],
      ['ali', 'Alibaba Cloud'],
      ['tencent', 'Tencent Cloud'],
      ['huawei', 'Huawei Cloud'],
    ]),
  ),
  dict('flow', text('流程类型', 'Process type'), [
    { key: '1', zh: '请假流程', en: 'Leave process', remark: 'leave' },
    { key: '2', zh: '报销流程', en: 'Expense process', remark: 'expense' },
    { key: '3', zh: '防返贫监测识别', en: 'Relief identification', remark: 'relief' },
  ]),
  dict(
    'region',
    text('行政区划', 'Administrative division'),
    numbered([
      ['省份', 'Province'],
      ['地市', 'City'],
      ['区县', 'County'],
      ['乡镇', 'Township'],
      ['村委', 'Village committee'],
    ]),
  ),
  // a menu's 新窗口 as the family keeps it: 1 inside the app, 2 a new window (last: the seed numbers the
  // dictionaries' rows in this order)
  dict('menu_open', text('新窗口', 'New window'), [
    { key: '1', zh: '否', en: 'No' },
    { key: '2', zh: '是', en: 'Yes' },
  ]),
];

/** What a platform field names its dictionary by: `SYSTEM_DICT.sex`. */
export const SYSTEM_DICT = dictCodes(SYSTEM_DICTS);
