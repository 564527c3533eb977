import { FIELD_KINDS, type FieldType } from '@smart/contracts/core';
import { describe, expect, it } from 'vitest';
import { KINDS } from './kinds';

describe('column alignment', () => {
  it('money, decimals and integers are right-aligned in a list, everything else left', () => {
    const right = (Object.keys(FIELD_KINDS) as FieldType[]).filter((k) => KINDS[k].align === 'right');
    expect(right.sort()).toEqual(['decimal', 'int', 'money']);
  });
});
