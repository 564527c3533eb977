/**
 * One word per meaning, written once: the verbs and generic words every screen uses are the common bundle's
 * (`common` in zh.ts / en.ts, loaded with the shell). Every chunk's bundle is registered here as its chunk
 * registers it (each file that calls `addBundle`), and the rule is checked over all of them:
 * - a common text is defined nowhere else (a screen uses `common.<key>`, not a key of its own with the same words);
 * - a chunk's bundle never re-declares a common key, with the same words or others (`crud.search`);
 * - the words this product does not use for a common meaning appear nowhere (a search form's reset is 清空,
 *   never 重置: the village household tab said 重置 / 查询 while the list pages said 清空 / 搜索);
 * - a text that three bundles define (the shell counting as one) is a shared word: it is defined once, in
 *   `common` or in one of the shell's groups (both load with the shell, so every chunk may use their keys).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { layoutZh } from '../../shell/layout/strings';
import { en } from './en';
import { ensureLanguage, i18n, initI18n } from './index';
import { zh } from './zh';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out.set(`${prefix}${k}`, v);
    else leaves(v, `${prefix}${k}.`, out);
  }
  return out;
}

/**
 * Words this product does not use for a common meaning, by the common key that is used instead: the list
 * pages' search and reset buttons say 搜索 / 清空 (the generic list page's words; the spec names neither),
 * a confirmation is titled 提示 / "Confirm", a state column is 状态 / "Status".
 */
const NOT_USED: Partial<Record<keyof typeof zh.common, { zh?: string[]; en?: string[] }>> = {
  search: { zh: ['查询'], en: ['Query'] },
  clear: { zh: ['重置'], en: ['Reset'] },
  confirmTitle: { en: ['Tip'] },
  status: { en: ['State'] },
};

const src = join(dirname(fileURLToPath(import.meta.url)), '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('the common bundle', () => {
  /** every text but the common ones, by key, in each language */
  const others = { zh: new Map<string, string>(), en: new Map<string, string>() };
  /**
   * the shell's groups — zh.ts' (loaded with /login) and the layout's (loaded with the layout) — taken before
   * i18next merges the chunks' bundles into the same object
   */
  const shell = new Set([...Object.keys(zh), ...Object.keys(layoutZh)]);
  /** the bundle a key belongs to: a chunk's own (`wf`, `crud` …), or `shell` for zh.ts' other groups */
  const bundleOf = (key: string) => {
    const top = key.split('.')[0];
    return shell.has(top) ? 'shell' : top;
  };
  let chunks: string[] = [];
  const common = { zh: leaves(zh.common), en: leaves(en.common) };

  beforeAll(async () => {
    await initI18n();
    await ensureLanguage('en');
    const registering = sources(src).filter(
      (file) =>
        !file.endsWith(join('platform', 'i18n', 'index.ts')) &&
        /\baddBundle\('/.test(readFileSync(file, 'utf8')),
    );
    for (const file of registering) await import(/* @vite-ignore */ file);
    expect(registering.map((f) => relative(src, f))).toContain(join('platform', 'crud', 'i18n.ts'));
    for (const lng of ['zh', 'en'] as const) {
      for (const [key, text] of leaves(i18n.getResourceBundle(lng, 'translation') as Tree)) {
        if (!key.startsWith('common.')) others[lng].set(key, text);
      }
    }
    chunks = Object.keys(i18n.getResourceBundle('zh', 'translation') as Tree).filter((k) => !shell.has(k));
  }, 60_000);

  it('registers every chunk’s bundle (the scan works)', () => {
    for (const chunk of ['crud', 'excel', 'wf', 'work', 'sys', 'village', 'profile', 'home', 'telemetry'])
      expect(chunks, chunk).toContain(chunk);
    expect(common.zh.size).toBeGreaterThan(20);
  });

  it('is the only place its texts are defined', () => {
    const texts = new Map([...common.zh].map(([key, text]) => [text, key]));
    const repeated = [...others.zh]
      .filter(([, text]) => texts.has(text))
      .map(([key, text]) => `${key} repeats common.${texts.get(text)} (${text}): use the common key`);
    expect(repeated).toEqual([]);
  });

  it('has keys no chunk’s bundle re-declares', () => {
    const redeclared = [...others.zh.keys()].filter((key) => {
      const [top, name, ...rest] = key.split('.');
      return chunks.includes(top) && rest.length === 0 && common.zh.has(name);
    });
    expect(redeclared.map((key) => `${key} re-declares common.${key.split('.')[1]}`)).toEqual([]);
  });

  it('has one word per meaning: the words it does not use appear nowhere', () => {
    const misworded: string[] = [];
    for (const [name, words] of Object.entries(NOT_USED)) {
      for (const lng of ['zh', 'en'] as const) {
        for (const [key, text] of others[lng])
          if (words[lng]?.includes(text)) misworded.push(`${lng}:${key} says ${text}: use common.${name}`);
      }
    }
    expect(misworded).toEqual([]);
  });

  it('holds every text that three bundles define', () => {
    const bundles = new Map<string, Set<string>>();
    for (const [key, text] of others.zh)
      bundles.set(text, (bundles.get(text) ?? new Set()).add(bundleOf(key)));
    const widespread = [...bundles]
      .filter(([, where]) => where.size >= 3)
      .map(([text, where]) => `${text} in ${[...where].join(', ')}: define it once, in common or the shell`);
    expect(widespread).toEqual([]);
  });

  it('has the same keys in both languages', () => {
    expect([...common.en.keys()].sort()).toEqual([...common.zh.keys()].sort());
  });
});
