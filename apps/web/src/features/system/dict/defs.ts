/**
 * The dictionary screens' definitions for the generic page. The field rules and required messages are the
 * definitions' (packages/contracts dictResource / dictBizResource, DICT_FIELDS; spec §5): the browser says the same words
 * before anything is sent. Labels are the form's.
 */
import type { FieldDef, ResourceDef, Text2 } from '@smart/contracts/core';

const text = (zh: string, en: string): Text2 => ({ zh, en });

export const DICT_FIELDS = {
  code: {
    name: 'code',
    label: text('字典编号', 'Dictionary number'),
    type: 'text',
    required: true,
    max: 255,
    requiredMessage: text('请输入字典编号', 'please enter dictionary number'),
    search: 'like',
  },
  dictValue: {
    name: 'dictValue',
    label: text('字典名称', 'Dictionary name'),
    type: 'text',
    required: true,
    max: 255,
    requiredMessage: text('请输入字典名称', 'please enter dictionary name'),
    search: 'like',
  },
  // optional: where empty, an English screen shows the Chinese value
  dictValueEn: {
    name: 'dictValueEn',
    label: text('英文值', 'English value'),
    type: 'text',
    max: 255,
  },
  dictKey: {
    name: 'dictKey',
    label: text('字典键值', 'Dictionary key'),
    type: 'text',
    required: true,
    max: 255,
    requiredMessage: text('请输入字典键值', 'please enter dictionary key'),
  },
  sort: {
    name: 'sort',
    label: text('字典排序', 'Dictionary sort'),
    type: 'int',
    required: true,
    min: 0,
    max: 2_147_483_647,
    requiredMessage: text('请输入字典排序', 'please enter dictionary sort'),
  },
  // 0 否 / 1 是, default 0; a select (not a switch), so that it can be left empty and say so
  isSealed: {
    name: 'isSealed',
    label: text('封存', 'Sealed'),
    type: 'dict',
    required: true,
    default: 0,
    requiredMessage: text('请选择封存', 'please select sealed'),
  },
  remark: {
    name: 'remark',
    label: text('字典备注', 'Remark'),
    type: 'text',
    max: 255,
    list: false,
    span: 24,
  },
  parentId: {
    name: 'parentId',
    label: text('上级字典', 'Parent dictionary'),
    type: 'ref',
    list: false,
  },
} satisfies Record<string, FieldDef>;

export type DictKind = 'dict' | 'dictbiz';

export interface DictDefs {
  kind: DictKind;
  /** the dictionaries (parent rows), paged */
  parent: ResourceDef;
  /** the entries of one dictionary, a tree */
  child: ResourceDef;
  base: string;
}

export function dictDefs(kind: DictKind): DictDefs {
  const path = kind === 'dict' ? 'dict' : 'dict-biz';
  const common = {
    service: 'dfem-system',
    path,
    route: kind === 'dict' ? '/system/dict' : '/system/dictbiz',
    permission: kind === 'dict' ? 'dict' : 'dict_biz',
    tenant: kind === 'dictbiz',
    dialogWidth: 880,
  };
  const label =
    kind === 'dict' ? text('字典管理', 'Dictionaries') : text('业务字典', 'Business dictionaries');
  const f = DICT_FIELDS;
  return {
    kind,
    base: `/api/dfem-system/${path}`,
    parent: {
      ...common,
      key: `${kind}Parent`,
      label,
      fields: [f.code, f.dictValue, f.dictValueEn, f.sort, f.isSealed, f.remark],
    },
    child: {
      ...common,
      key: `${kind}Child`,
      label: text('字典配置', 'Dictionary entries'),
      tree: true,
      fields: [
        { ...f.code, search: undefined },
        f.parentId,
        f.dictKey,
        { ...f.dictValue, search: undefined },
        f.dictValueEn,
        f.sort,
        f.isSealed,
        f.remark,
      ],
    },
  };
}
