import type { DictEntry } from '@smart/contracts';
import { describe, expect, it } from 'vitest';
import { matchPattern } from '../../shell/guard';
import { flowRoutesOf, LEAVE_PATTERNS, processPaths, routeOf } from './routes';

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
});
