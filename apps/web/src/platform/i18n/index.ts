import { DEFAULT_LANGUAGE } from '@smart/contracts/core';
import i18next, { type i18n as I18n, type ParseKeys } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { jsonStorage } from '../storage';
import { type Resource, zh } from './zh';

/**
 * The strings of lazy chunks, by their top-level key (crud, excel, sys, wf, work, village, profile): each
 * chunk declares its bundle here by declaration merging, next to its `addBundle` call —
 * `declare module '…/platform/i18n' { interface ChunkBundles { wf: typeof wfZh } }` — so the platform
 * imports nothing of the features and every `t('wf.…')` key is still checked.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in each chunk
export interface ChunkBundles {}

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    /** the shell's strings (zh.ts) and every chunk's: a key missing from them is a type error */
    resources: { translation: Resource & ChunkBundles };
    interpolationPrefix: '{';
    interpolationSuffix: '}';
  }
}

/** A translation key of the shell or of any chunk (`'route.home'`, `'common.save'`, `'crud.batchDelete'` …). */
export type TextKey = ParseKeys;

/** `E` with no key `Z` lacks, at any depth (`E extends Z` already makes it hold every key of `Z`). */
export type NoExtraKeys<Z, E> = {
  [K in keyof E]: K extends keyof Z ? (E[K] extends string ? E[K] : NoExtraKeys<Z[K], E[K]>) : never;
};

export type Language = 'zh' | 'en';
export const LANGUAGES: readonly Language[] = ['zh', 'en'];

interface LanguageState {
  language: Language;
}

/** The UI language, remembered in localStorage (spec §3: language, default zh). */
export const useLanguage = create<LanguageState>()(
  persist(() => ({ language: (DEFAULT_LANGUAGE as Language) ?? 'zh' }), {
    name: 'saber-language',
    storage: jsonStorage('local'),
  }),
);

/** The value of the html lang attribute and of Accept-Language for a UI language. */
export function htmlLang(language: Language): string {
  return language === 'en' ? 'en' : 'zh-CN';
}

export const i18n: I18n = i18next.createInstance();

/**
 * Registers a chunk's strings under `key` when its chunk loads, so /login never carries them. The English
 * must have exactly the Chinese keys: a missing or an extra one is a type error.
 */
export function addBundle<K extends keyof ChunkBundles, E extends ChunkBundles[K]>(
  key: K,
  zhStrings: ChunkBundles[K],
  enStrings: E & NoExtraKeys<ChunkBundles[K], E>,
): void {
  i18n.addResourceBundle('zh', 'translation', { [key]: zhStrings }, true, false);
  i18n.addResourceBundle('en', 'translation', { [key]: enStrings }, true, false);
}

/**
 * The shell's English strings come with the first use of English (a page shown in Chinese, the default,
 * never downloads them); the chunks' bundles carry both languages (`addBundle`).
 */
let english: Promise<void> | undefined;
export function ensureLanguage(language: Language): Promise<void> {
  if (language !== 'en') return Promise.resolve();
  english ??= import('./en').then((m) => {
    i18n.addResourceBundle('en', 'translation', m.en, true, false);
  });
  return english;
}

/**
 * A count with its noun in the language's plural form: English texts write
 * `{count, plural(one: entry; other: entries)}` ("1 entry", "3 entries"); Chinese has one form and writes
 * `{count} 条`. The one helper for every count a text shows (registered as i18next's `plural` format).
 */
export function plural(count: number, language: string, words: { one?: string; other?: string }): string {
  const form = new Intl.PluralRules(language).select(count) === 'one' ? words.one : words.other;
  const word = form ?? words.other ?? '';
  return word ? `${count} ${word}` : String(count);
}

/** Starts i18next in the remembered language; resolves once that language's strings are there. */
export function initI18n(): Promise<void> {
  const language = useLanguage.getState().language;
  const lng: Language = LANGUAGES.includes(language) ? language : 'zh';
  i18n.use(initReactI18next).init({
    resources: { zh: { translation: zh }, en: { translation: {} } },
    lng,
    fallbackLng: 'zh',
    // one placeholder syntax for every text: `{label}`, as in the contracts' messages (validate.ts `fill`)
    interpolation: { escapeValue: false, prefix: '{', suffix: '}' },
    initAsync: false,
    returnNull: false,
  });
  i18n.services.formatter?.add('plural', (value, language, options) =>
    plural(Number(value), language ?? 'en', options as { one?: string; other?: string }),
  );
  applyDocumentLanguage(lng);
  return ensureLanguage(lng);
}

function applyDocumentLanguage(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(language);
}

/** Switches the UI language once its strings are there (English is fetched the first time). */
export function setLanguage(language: Language): void {
  void ensureLanguage(language).then(() => {
    useLanguage.setState({ language });
    void i18n.changeLanguage(language);
    applyDocumentLanguage(language);
  });
}

export function currentLanguage(): Language {
  return useLanguage.getState().language === 'en' ? 'en' : 'zh';
}

/** Translate outside React (http toasts, document title). */
export function t(key: TextKey, options?: Record<string, unknown>): string {
  return String(i18n.t(key, options as never));
}
