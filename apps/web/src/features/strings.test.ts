/**
 * Every text the web registers with i18next — the shell's (zh.ts / en.ts) and each chunk's bundle — in
 * one syntax: `{name}` placeholders, as the contracts' messages write them (validate.ts `fill`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureLanguage, i18n, initI18n } from '../platform/i18n';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(`${prefix}${k}`, v);
    else leaves(v, `${prefix}${k}.`, out);
  }
  return out;
}

/** `{name}`; `${…}` is a BPMN expression the flow screens show as it is */
const PLACEHOLDER = /(?<!\$)\{(\w+)(?:, [^}]+)?\}/g;
const placeholders = (s: string) => [...new Set([...s.matchAll(PLACEHOLDER)].map((m) => m[1]))].sort();

describe('the web’s texts', () => {
  let zh: Map<string, string>;
  let en: Map<string, string>;

  beforeAll(async () => {
    await initI18n();
    await ensureLanguage('en');
    // every chunk's bundle, registered as its chunk registers it when it loads
    await Promise.all([
      import('../shell/layout/i18n'),
      import('../platform/crud/i18n'),
      import('../platform/crud/ExcelToolbar'),
      import('./flow/i18n'),
      import('./work/i18n'),
      import('./system/i18n'),
      import('./village/i18n'),
      import('./evaluation/i18n'),
      import('./info/InfoPage'),
      import('./wechat/drafts/i18n'),
      import('./wechat/i18n'),
      import('./wechat/mp-i18n'),
    ]);
    zh = leaves(i18n.getResourceBundle('zh', 'translation') as Tree);
    en = leaves(i18n.getResourceBundle('en', 'translation') as Tree);
  }, 30_000);

  it('are all registered (the shell’s and every chunk’s)', () => {
    for (const ns of [
      'app',
      'login',
      'crud',
      'excel',
      'wf',
      'work',
      'sys',
      'village',
      'evaluation',
      'profile',
      'wxpub',
      'wechat',
      'wxmp',
    ])
      expect(
        [...zh.keys()].some((k) => k.startsWith(`${ns}.`)),
        ns,
      ).toBe(true);
  });

  it('have one placeholder syntax: no `{{…}}` is left', () => {
    const double = [...zh, ...en].filter(([, v]) => v.includes('{{') || v.includes('}}'));
    expect(double).toEqual([]);
  });

  it('have the same keys and placeholders in Chinese and English', () => {
    expect([...en.keys()].sort()).toEqual([...zh.keys()].sort());
    for (const [k, v] of zh) expect(placeholders(en.get(k) ?? ''), k).toEqual(placeholders(v));
  });

  it('fill `{name}` with the value given, and leave `${…}` expressions as they are', () => {
    let filled = 0;
    for (const [lng, texts] of [
      ['zh', zh],
      ['en', en],
    ] as const) {
      const t = i18n.getFixedT(lng);
      for (const [key, text] of texts) {
        const names = placeholders(text);
        // a count written with its noun (`{n, plural(one: …; other: …)}`) is given 2: "2 <other>"
        const counted = new Set([...text.matchAll(/\{(\w+), plural\(/g)].map((m) => m[1]));
        const values = Object.fromEntries(names.map((n) => [n, counted.has(n) ? 2 : `«${n}»`]));
        const expected = text
          .replace(/\{\w+, plural\([^)]*other: ([^)]+)\)\}/g, (_, other: string) => `2 ${other}`)
          .replace(PLACEHOLDER, (_, n: string) => `«${n}»`);
        expect(t(key as never, values as never), `${lng}:${key}`).toBe(expected);
        if (names.length) filled += 1;
      }
    }
    expect(filled).toBeGreaterThan(40);
    expect(zh.get('wf.designer.assigneeHelp')).toContain('${taskUser}');
  });

  it('write English counts in the singular for one and the plural otherwise, Chinese as they are', () => {
    const english = i18n.getFixedT('en');
    expect(english('log.button', { count: 1 })).toBe('Log (1 entry)');
    expect(english('log.button', { count: 0 })).toBe('Log (0 entries)');
    expect(english('log.button', { count: 12 })).toBe('Log (12 entries)');
    expect(english('wf.maxLength', { max: 1 })).toBe('At most 1 character');
    expect(i18n.getFixedT('zh')('log.button', { count: 1 })).toBe('日志（1 条）');
    // no English text says "(s)" or a bare plural after a count any more
    const bare = [...en].filter(([, v]) =>
      /\(s\)|\{\w+\} (days|entries|requests|corners|tiles|times)\b/.test(v),
    );
    expect(bare).toEqual([]);
  });
});
