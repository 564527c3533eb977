import type { DictEntry } from '@smart/contracts/core';
import { describe, expect, it } from 'vitest';
import { matchPattern, resolveRoute } from '../../shell/guard';
import { registry } from '../registry';
import { APPLY_PATTERNS, flowRoutesOf, LEAVE_PATTERNS, processPaths, routeOf } from './routes';

const entry = (dictKey: string, remark: string): DictEntry => ({
  id: dictKey,
  parentId: '1',
  code: 'flow',
  dictKey,
  dictValue: dictKey,
  sort: 1,
  remark,
  isSealed: 0,
});

describe('flow routes', () => {
  const routes = flowRoutesOf([entry('1', 'leave'), entry('2', ' expense '), entry('3', '')]);

  it('map code_dictKey to the remark, skipping entries without one', () => {
    expect(routes).toEqual([
      { routeKey: 'flow_1', routeValue: 'leave' },
      { routeKey: 'flow_2', routeValue: 'expense' },
    ]);
    expect(routeOf(routes, '1')).toBe('leave');
    expect(routeOf(routes, '3')).toBe('');
    expect(routeOf(routes, '')).toBe('');
  });

  it('build the leave paths the registry patterns match', () => {
    expect(processPaths.form('leave', 'leave:1:seed0001')).toBe(
      '/work/process/leave/form/leave%3A1%3Aseed0001',
    );
    expect(matchPattern(LEAVE_PATTERNS.form, processPaths.form('leave', 'leave:1:seed0001'))).toEqual({
      processDefinitionId: 'leave:1:seed0001',
    });
    expect(matchPattern(LEAVE_PATTERNS.handle, processPaths.handle('leave', '7', 'a-b', '9'))).toEqual({
      taskId: '7',
      processInstanceId: 'a-b',
      businessId: '9',
    });
    expect(matchPattern(LEAVE_PATTERNS.detail, processPaths.detail('leave', 'a-b', '9'))).toEqual({
      processInstanceId: 'a-b',
      businessId: '9',
    });
  });

  it('open every other family at the same paths in the generic pages, the leave pages winning for leave', () => {
    const paths = (family: string) => [
      processPaths.form(family, 'expense_apply:1:ab12'),
      processPaths.handle(family, '7', 'a-b', 'a-b'),
      processPaths.detail(family, 'a-b', 'a-b'),
    ];
    expect(paths('expense')[0]).toBe('/work/process/expense/form/expense_apply%3A1%3Aab12');
    expect(matchPattern(APPLY_PATTERNS.handle, paths('expense')[1])).toEqual({
      family: 'expense',
      taskId: '7',
      processInstanceId: 'a-b',
      businessId: 'a-b',
    });
    // PageHost and the guard take the first pattern that matches, in their order
    const page = (path: string) =>
      Object.keys(registry).find((p) => p.includes(':') && matchPattern(p, path));
    const title = (path: string) =>
      resolveRoute(path, { token: '', cookieToken: '', locked: false, menu: [] })?.meta.i18n;
    expect(paths('leave').map(page)).toEqual(Object.values(LEAVE_PATTERNS));
    expect(paths('expense').map(page)).toEqual(Object.values(APPLY_PATTERNS));
    expect(paths('leave').map(title)).toEqual(['route.leaveForm', 'route.leaveHandle', 'route.leaveDetail']);
    expect(paths('expense').map(title)).toEqual([
      'route.applyForm',
      'route.applyHandle',
      'route.applyDetail',
    ]);
    // a remark that is not a plain word still makes one segment
    expect(matchPattern(APPLY_PATTERNS.form, processPaths.form('a/b c', 'x:1:y'))).toEqual({
      family: 'a/b c',
      processDefinitionId: 'x:1:y',
    });
  });
});
