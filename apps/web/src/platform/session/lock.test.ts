import { describe, expect, it } from 'vitest';
import { unlockTarget } from './lock';

describe('unlocking', () => {
  it('returns to the page locked from, with its query', () => {
    expect(unlockTarget('/system/param/index')).toBe('/system/param/index');
    expect(unlockTarget('/village/villager/index?name=张三')).toBe('/village/villager/index?name=张三');
  });

  it('goes home when there is no such page of this app', () => {
    for (const from of [
      undefined,
      '',
      '/lock',
      '/lock?x=1',
      '//evil.example/x',
      '/\\evil.example',
      'https://x.y/',
    ])
      expect(unlockTarget(from)).toBe('/wel/index');
  });
});
