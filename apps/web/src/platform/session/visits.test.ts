import { beforeEach, describe, expect, it } from 'vitest';
import { countVisit, readVisits } from './visits';

/** a localStorage of our own: the unit tests run in Node */
const store = new Map<string, string>();
Object.defineProperty(globalThis, 'localStorage', {
  configurable: true,
  value: {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  },
});

describe('most visited screens', () => {
  beforeEach(() => store.clear());

  it('counts a screen each time it is opened after another, per tenant and user', () => {
    countVisit('000000', 'u1', '/desk/notice/index');
    countVisit('000000', 'u1', '/desk/notice/index'); // the same screen again: not another opening
    countVisit('000000', 'u1', '/system/param/index');
    countVisit('000000', 'u1', '/desk/notice/index');
    expect(readVisits('000000', 'u1')).toEqual({ '/desk/notice/index': 2, '/system/param/index': 1 });
    expect(readVisits('000000', 'u2')).toEqual({});
    expect(readVisits('200001', 'u1')).toEqual({});
  });

  it('nothing is counted without a user, and unreadable storage reads as nothing', () => {
    countVisit('000000', '', '/system/param/index');
    expect(store.size).toBe(0);
    store.set('saber-visits:000000:u3', '{not json');
    expect(readVisits('000000', 'u3')).toEqual({});
  });
});
