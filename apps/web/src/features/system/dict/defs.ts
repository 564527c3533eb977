/**
 * The dictionary screens' two lists, cut from the contracts' definitions (`dictResource`, `dictBizResource`:
 * labels, rules and the spec's messages are theirs): the dictionaries themselves, paged, and the entries of
 * one dictionary as a tree, where the key is required (the server's binding requires it of an entry too).
 */
import type { FieldDef, ResourceDef } from '@smart/contracts/core';
import { DICT_FIELDS, dictBizResource, dictResource } from '@smart/contracts/system';

export type DictKind = 'dict' | 'dictbiz';

export interface DictDefs {
  kind: DictKind;
  /** the dictionaries (parent rows), paged */
  parent: ResourceDef;
  /** the entries of one dictionary, a tree */
  child: ResourceDef;
  base: string;
}

/** a field as the entries' list shows it: searched by the dictionary's own list, not there */
const unsearched = (f: FieldDef): FieldDef => ({ ...f, search: undefined });

export function dictDefs(kind: DictKind): DictDefs {
  const def = kind === 'dict' ? dictResource : dictBizResource;
  const f = DICT_FIELDS;
  return {
    kind,
    base: `/api/${def.service}/${def.path}`,
    parent: {
      ...def,
      key: `${kind}Parent`,
      tree: false,
      fields: [f.code, f.dictValue, f.dictValueEn, f.sort, f.isSealed, f.remark],
    },
    child: {
      ...def,
      key: `${kind}Child`,
      label: { zh: '字典配置', en: 'Dictionary entries' },
      tree: true,
      fields: [
        unsearched(f.code),
        f.parentId,
        { ...f.dictKey, required: true },
        unsearched(f.dictValue),
        f.dictValueEn,
        f.sort,
        f.isSealed,
        f.remark,
      ],
    },
  };
}
