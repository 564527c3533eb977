import { describe, expect, it } from 'vitest';
import { avatarProblem } from './avatar';
import { profileEn, profileZh } from './strings';

type Tree = { [key: string]: string | Tree };
function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : leaves(v, `${prefix}${k}.`),
  );
}

describe('personal info strings', () => {
  it('exist in both languages with no empty text', () => {
    const zh = leaves(profileZh);
    const en = leaves(profileEn);
    expect(en.map(([k]) => k).sort()).toEqual(zh.map(([k]) => k).sort());
    for (const [, v] of [...zh, ...en]) expect(v.trim()).not.toBe('');
  });

  it('keep the spec’s words', () => {
    expect(profileZh.password.mismatch).toBe('两次密码输入不一致');
  });
});

describe('avatar check before upload (jpg or png, at most 500 KB)', () => {
  it('accepts jpg and png up to 500 KB', () => {
    expect(avatarProblem({ name: 'a.png', type: 'image/png', size: 500 * 1024 })).toBeNull();
    expect(avatarProblem({ name: 'a.JPG', type: 'image/jpeg', size: 10 })).toBeNull();
    expect(avatarProblem({ name: 'a.jpeg', type: '', size: 10 })).toBeNull();
  });

  it('refuses other types and larger files', () => {
    expect(avatarProblem({ name: 'a.gif', type: 'image/gif', size: 10 })).toBe('type');
    expect(avatarProblem({ name: 'a.png.exe', type: 'image/png', size: 10 })).toBe('type');
    expect(avatarProblem({ name: 'a.webp', type: 'image/webp', size: 10 })).toBe('type');
    expect(avatarProblem({ name: 'a.png', type: 'image/png', size: 500 * 1024 + 1 })).toBe('size');
  });
});
