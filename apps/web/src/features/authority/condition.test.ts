import { paramResource } from '@smart/contracts/system';
import { userResource } from '@smart/contracts/user';
import { describe, expect, it } from 'vitest';
import {
  CALLER_VALUES,
  formatCondition,
  isValidCondition,
  parseCondition,
  scopeFields,
  valueText,
} from './condition';

describe('custom data scope condition', () => {
  it('is JSON {field, op, value}; `in` takes a list', () => {
    expect(formatCondition('account', 'eq', ' admin ')).toBe('{"field":"account","op":"eq","value":"admin"}');
    expect(JSON.parse(formatCondition('sex', 'in', '1, 2，3'))).toEqual({
      field: 'sex',
      op: 'in',
      value: ['1', '2', '3'],
    });
  });

  it('reads stored conditions and refuses anything else', () => {
    expect(parseCondition('{"field":"sex","op":"in","value":["1","2"]}')).toEqual({
      field: 'sex',
      op: 'in',
      value: ['1', '2'],
    });
    expect(parseCondition('')).toBeNull();
    expect(parseCondition('create_user = 1 or 1=1')).toBeNull();
    expect(parseCondition('{"field":"sex","op":"like","value":"1"}')).toBeNull();
    expect(valueText({ value: ['1', '2'] })).toBe('1,2');
  });

  it('names only readable fields of the target resource', () => {
    const names = scopeFields(userResource).map((f) => f.name);
    expect(names).toContain('account');
    expect(names).not.toContain('password');
    expect(isValidCondition(formatCondition('account', 'eq', CALLER_VALUES[0]), userResource)).toBe(true);
    expect(isValidCondition('{"field":"password","op":"eq","value":"x"}', userResource)).toBe(false);
    expect(isValidCondition('{"field":"account","op":"eq","value":""}', userResource)).toBe(false);
    expect(isValidCondition('{"field":"account","op":"in","value":[]}', userResource)).toBe(false);
    expect(isValidCondition('{"field":"account","op":"eq","value":"a"}', paramResource)).toBe(false);
    expect(isValidCondition('{"field":"account","op":"eq","value":"a"}', undefined)).toBe(false);
  });
});
