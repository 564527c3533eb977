import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { compactParams, dateRangeParams, resourceBase } from './query';
import {
  allKeys,
  branchKeys,
  checkedForDisplay,
  parentIndex,
  stripEmptyChildren,
  subtreeKeys,
  withAncestors,
} from './tree';

// system ▸ param ▸ (add, edit), system ▸ post, desk
const tree = [
  {
    id: 's',
    key: 's',
    children: [
      {
        id: 'p',
        key: 'p',
        children: [
          { id: 'pa', key: 'pa', children: [] },
          { id: 'pe', key: 'pe', children: [] },
        ],
      },
      { id: 'o', key: 'o', children: [] },
    ],
  },
  { id: 'd', key: 'd', children: [] },
];

describe('tree helpers', () => {
  it('strip empty children so leaves are not expandable', () => {
    const out = stripEmptyChildren(tree);
    expect(out[1]).toEqual({ id: 'd', key: 'd' });
    expect(out[0].children?.[1]).toEqual({ id: 'o', key: 'o' });
    expect(out[0].children?.[0].children).toHaveLength(2);
  });

  it('list keys, branches, parents and subtrees', () => {
    expect(allKeys(tree)).toEqual(['s', 'p', 'pa', 'pe', 'o', 'd']);
    expect(branchKeys(tree)).toEqual(['s', 'p']);
    expect(parentIndex(tree).get('pa')).toBe('p');
    expect(parentIndex(tree).has('s')).toBe(false);
    expect(subtreeKeys(tree, 'p')).toEqual(['p', 'pa', 'pe']);
    expect(subtreeKeys(tree, 'x')).toEqual([]);
  });

  it('show granted parents checked only when everything below them is granted', () => {
    // a role holding system, param and one of its buttons: param is half-checked, so is system
    expect(checkedForDisplay(tree, ['s', 'p', 'pa'])).toEqual(['pa']);
    // everything of param: param is checked, system stays half-checked (post is missing)
    expect(checkedForDisplay(tree, ['s', 'p', 'pa', 'pe'])).toEqual(['pa', 'pe', 'p']);
    expect(checkedForDisplay(tree, ['s', 'p', 'pa', 'pe', 'o', 'd'])).toEqual([
      'pa',
      'pe',
      'p',
      'o',
      's',
      'd',
    ]);
  });

  it('save the checked keys with their half-checked ancestors, in tree order', () => {
    expect(withAncestors(tree, ['pa'])).toEqual(['s', 'p', 'pa']);
    expect(withAncestors(tree, ['o', 'pe'])).toEqual(['s', 'p', 'pe', 'o']);
    expect(withAncestors(tree, [])).toEqual([]);
    // a round trip keeps the grant
    const saved = withAncestors(tree, ['pa', 'o']);
    expect(withAncestors(tree, checkedForDisplay(tree, saved))).toEqual(saved);
  });
});

describe('list query helpers', () => {
  it('date range: start and end become createTime_dategt / _datelt, never reversed', () => {
    const a = dayjs('2026-05-01');
    const b = dayjs('2026-05-10');
    expect(dateRangeParams([a, b])).toEqual({
      createTime_dategt: '2026-05-01',
      createTime_datelt: '2026-05-10',
    });
    expect(dateRangeParams([b, a])).toEqual({
      createTime_dategt: '2026-05-01',
      createTime_datelt: '2026-05-10',
    });
    expect(dateRangeParams([a, null])).toEqual({ createTime_dategt: '2026-05-01' });
    expect(dateRangeParams(undefined)).toEqual({});
  });

  it('empty search values filter nothing', () => {
    expect(compactParams({ a: '', b: ' x ', c: undefined, d: 0 })).toEqual({ b: 'x', d: '0' });
  });

  it('resource base paths', () => {
    expect(resourceBase({ service: 'dfem-user', path: '' })).toBe('/api/dfem-user');
    expect(resourceBase({ service: 'dfem-system', path: 'param' })).toBe('/api/dfem-system/param');
  });
});
