import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { layoutEn, layoutZh } from '../../shell/layout/strings';
import { en as shellEn } from './en';
import { zh as shellZh } from './zh';

/** the shell's strings: those /login carries (zh.ts, en.ts) and the layout's, registered when it loads */
const zh = { ...shellZh, ...layoutZh };
const en = { ...shellEn, ...layoutEn };

/**
 * Every translation key the shell's code names exists in both languages: string literals that start
 * with one of the resources' namespaces ('route.home', 'register.tenantRequired' …), and the keys built
 * from a template (`lang.${lang}`), expanded from the list below.
 */
const src = join(dirname(fileURLToPath(import.meta.url)), '../..');
const ROOTS = ['shell', 'platform/session', 'platform/http', 'platform/i18n', 'platform/ui', 'platform/auth'];
const FILES = ['main.tsx', 'router.tsx'];

/** Keys built from templates, by their literal prefix. A new template must be listed here. */
const TEMPLATES: Record<string, string[]> = {
  'lang.': ['zh', 'en', 'switch'],
  'notice.': ['mail', 'message', 'notice'],
  'flow.': ['finished', 'active', 'sequence'],
};

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !/(zh|en|strings)\.ts$/.test(name)
      ? [path]
      : [];
  });
}

function has(tree: unknown, key: string): boolean {
  let node = tree;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' && node.trim() !== '';
}

const files = [...ROOTS.flatMap((r) => walk(join(src, r))), ...FILES.map((f) => join(src, f))];
const namespaces = Object.keys(zh);

describe('translation keys used by the shell', () => {
  const used = new Map<string, string>();
  const templates = new Map<string, string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/['"`]([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)+)['"`]/g)) {
      if (namespaces.includes(m[1].split('.')[0])) used.set(m[1], relative(src, file));
    }
    for (const m of text.matchAll(/`([a-z][A-Za-z0-9]*\.(?:[A-Za-z0-9]+\.)*)\$\{/g)) {
      if (namespaces.includes(m[1].split('.')[0])) templates.set(m[1], relative(src, file));
    }
  }

  it('finds the keys (the scan works)', () => {
    expect(used.size).toBeGreaterThan(100);
    expect(used.has('register.tenantRequired')).toBe(true);
  });

  it('every literal key exists in Chinese and in English', () => {
    const missing = [...used].filter(([key]) => !has(zh, key) || !has(en, key));
    expect(missing.map(([key, file]) => `${key} (${file}): zh ${has(zh, key)}, en ${has(en, key)}`)).toEqual(
      [],
    );
  });

  it('every key built from a template exists in both languages', () => {
    expect([...templates.keys()].filter((p) => !TEMPLATES[p])).toEqual([]);
    for (const [prefix, rests] of Object.entries(TEMPLATES)) {
      for (const rest of rests) {
        expect(has(zh, prefix + rest), `zh ${prefix}${rest}`).toBe(true);
        expect(has(en, prefix + rest), `en ${prefix}${rest}`).toBe(true);
      }
    }
  });

  it('the spec wording is kept in Chinese', () => {
    expect(zh.lock.required).toBe('锁屏密码不能为空');
    expect(zh.switch.title).toBe('用户信息选择');
    expect(zh.switch.deptRequired).toBe('请选择部门');
    expect(zh.switch.roleRequired).toBe('请选择角色');
    expect(zh.switch.submit).toBe('切换');
    expect(zh.tags.clearCacheConfirm).toBe('是否需要清除缓存?');
    expect(zh.tags.cacheCleared).toBe('清除完毕');
    expect(zh.register.title).toBe('账号注册');
    expect(zh.register.submitted).toBe('注册申请已提交,请耐心等待管理员通过!');
    expect(zh.register.resultTitle).toBe('注册提示');
    expect(zh.register.failed).toBe('提交失败');
    expect(zh.log.title).toBe('日志');
    expect(zh.flow.title).toBe('流程图展示');
  });
});
