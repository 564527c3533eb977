import { describe, expect, it } from 'vitest';
import { en } from './en';
import { plural } from './index';
import { zh } from './zh';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of leaves(value, path)) out.set(k, v);
    } else {
      out.set(path, value);
    }
  }
  return out;
}

function placeholders(text: string): string[] {
  // `{name}` (i18next is set to single braces, like the contracts' messages); `${…}` is a BPMN expression
  return [...text.matchAll(/(?<!\$)\{(\w+)(?:, [^}]+)?\}/g)].map((m) => m[1]).sort();
}

describe('i18n resources', () => {
  const zhLeaves = leaves(zh as Tree);
  const enLeaves = leaves(en as Tree);

  it('zh and en have exactly the same keys', () => {
    const zhKeys = [...zhLeaves.keys()].sort();
    const enKeys = [...enLeaves.keys()].sort();
    expect(enKeys.filter((k) => !zhLeaves.has(k))).toEqual([]);
    expect(zhKeys.filter((k) => !enLeaves.has(k))).toEqual([]);
    expect(zhKeys.length).toBeGreaterThan(50);
  });

  it('has no empty or non-string values', () => {
    for (const [name, map] of [
      ['zh', zhLeaves],
      ['en', enLeaves],
    ] as const) {
      for (const [key, value] of map) {
        expect(typeof value, `${name}:${key}`).toBe('string');
        expect((value as string).trim(), `${name}:${key}`).not.toBe('');
      }
    }
  });

  it('uses the same interpolation placeholders in both languages', () => {
    for (const [key, value] of zhLeaves) {
      expect(placeholders(enLeaves.get(key) as string), key).toEqual(placeholders(value as string));
    }
  });

  it('names the product in both languages', () => {
    expect(zh.app.title).toBe('智慧管理系统');
    expect(en.app.title).toBe('Smart management system');
  });

  it('pluralises a count by the language’s rule', () => {
    const words = { one: 'page', other: 'pages' };
    expect(plural(1, 'en', words)).toBe('1 page');
    expect(plural(0, 'en', words)).toBe('0 pages');
    expect(plural(2, 'en', words)).toBe('2 pages');
    expect(plural(1, 'zh', { other: '页' })).toBe('1 页');
  });
});
