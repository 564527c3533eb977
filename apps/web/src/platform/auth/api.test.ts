import { describe, expect, it } from 'vitest';
import { refreshThreshold } from '../session/session';
import { flattenButtons } from './api';

describe('button permissions', () => {
  it('turns every leaf code of the tree into permission[code] = true', () => {
    expect(
      flattenButtons([
        { code: 'param', children: [{ code: 'param_add' }, { code: 'param_edit', children: [] }] },
        { code: 'notice_view' },
      ]),
    ).toEqual({ param_add: true, param_edit: true, notice_view: true });
    expect(flattenButtons(null)).toEqual({});
  });
});

describe('token refresh timing', () => {
  it('refreshes at the configured token time, or before the token expires', () => {
    expect(refreshThreshold(3000, 0)).toBe(3000);
    expect(refreshThreshold(3000, 7200)).toBe(3000);
    expect(refreshThreshold(3000, 3600)).toBe(3000);
    expect(refreshThreshold(3000, 1800)).toBe(1770);
  });
});
