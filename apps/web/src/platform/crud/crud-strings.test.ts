import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { zh } from '../i18n/zh';
import { crudEn, crudZh } from './strings';

describe('list page strings', () => {
  it('exist in both languages with no empty text', () => {
    expect(Object.keys(crudEn).sort()).toEqual(Object.keys(crudZh).sort());
    for (const v of [...Object.values(crudZh), ...Object.values(crudEn)]) expect(v.trim()).not.toBe('');
  });

  it('keep the spec’s words', () => {
    // the list page's confirmations, toasts and a switch's words are the common bundle's (platform/i18n)
    const [commonZh, commonEn] = [zh.common, en.common];
    expect(commonZh.selectAtLeastOne).toBe('请选择至少一条数据');
    expect(commonEn.selectAtLeastOne).toBe('please select at least one record');
    expect(commonZh.confirmDelete).toBe('确定将选择数据删除?');
    expect(commonEn.confirmDelete).toBe('confirm deleting selected data?');
    expect([commonZh.added, commonZh.updated, commonZh.deleted]).toEqual([
      '新增成功',
      '更新成功',
      '删除成功',
    ]);
    // the root of a parent picker (parentId '0')
    expect([crudZh.topLevel, crudEn.topLevel]).toEqual(['顶级', 'Top level']);
    // a switch's words and the search filter's three choices
    expect([commonZh.yes, commonZh.no, commonZh.all]).toEqual(['是', '否', '全部']);
    expect([commonEn.yes, commonEn.no, commonEn.all]).toEqual(['Yes', 'No', 'All']);
  });
});
