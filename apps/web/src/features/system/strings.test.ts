import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sysEn, sysZh } from './strings';

type Tree = { [key: string]: string | Tree };
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(`${prefix}${k}`, v);
    else for (const [kk, vv] of leaves(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}
const placeholders = (s: string) => [...s.matchAll(/(?<!\$)\{(\w+)\}/g)].map((m) => m[1]).sort();

/** every `sys.…` key the screens use (features/system, features/authority, features/log) */
function usedKeys(): string[] {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const keys = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.test.ts'))
        for (const m of readFileSync(path, 'utf8').matchAll(/['`]sys\.([\w.]+)['`]/g)) keys.add(m[1]);
    }
  };
  for (const area of ['system', 'authority', 'log']) walk(join(root, area));
  return [...keys];
}

describe('system screens strings', () => {
  const zh = leaves(sysZh);
  const en = leaves(sysEn);

  it('exist in both languages with the same keys and placeholders, no empty text', () => {
    expect([...en.keys()].sort()).toEqual([...zh.keys()].sort());
    for (const [k, v] of zh) {
      expect(v.trim(), k).not.toBe('');
      expect(en.get(k)?.trim(), k).not.toBe('');
      expect(placeholders(en.get(k) ?? ''), k).toEqual(placeholders(v));
    }
  });

  it('cover every key the screens use', () => {
    for (const k of usedKeys()) expect(zh.has(k), `sys.${k}`).toBe(true);
    for (const op of ['eq', 'ne', 'in']) expect(zh.has(`scope.op.${op}`)).toBe(true);
  });

  it('name the buttons as the seeded menu does', () => {
    expect([sysZh.user.roleConfig, sysZh.user.reset, sysZh.user.unlock, sysZh.user.platform]).toEqual([
      '角色配置',
      '密码重置',
      '账号解封',
      '平台配置',
    ]);
    expect(sysZh.role.grant).toBe('权限设置');
    expect(sysZh.user.pending).toBe('待审核');
  });
});
