import { describe, expect, it } from 'vitest';
import { crudEn, crudZh } from './strings';

describe('list page strings', () => {
  it('exist in both languages with no empty text', () => {
    expect(Object.keys(crudEn).sort()).toEqual(Object.keys(crudZh).sort());
    for (const v of [...Object.values(crudZh), ...Object.values(crudEn)]) expect(v.trim()).not.toBe('');
  });

  it('keep the spec’s words', () => {
    expect(crudZh.selectAtLeastOne).toBe('请选择至少一条数据');
    expect(crudEn.selectAtLeastOne).toBe('please select at least one record');
    expect(crudZh.confirmDelete).toBe('确定将选择数据删除?');
    expect(crudEn.confirmDelete).toBe('confirm deleting selected data?');
    expect([crudZh.added, crudZh.updated, crudZh.deleted]).toEqual(['新增成功', '更新成功', '删除成功']);
    // the root of a parent picker (parentId '0')
    expect([crudZh.topLevel, crudEn.topLevel]).toEqual(['顶级', 'Top level']);
    // a switch's words and the search filter's three choices
    expect([crudZh.yes, crudZh.no, crudZh.all]).toEqual(['是', '否', '全部']);
    expect([crudEn.yes, crudEn.no, crudEn.all]).toEqual(['Yes', 'No', 'All']);
  });
});
