import { DEFAULT_LANGUAGE } from '@smart/contracts/core';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { jsonStorage } from '../storage';
import { en } from './en';
import { zh } from './zh';

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

export function initI18n(): I18n {
  const language = useLanguage.getState().language;
  const lng: Language = LANGUAGES.includes(language) ? language : 'zh';
  i18n.use(initReactI18next).init({
    resources: { zh: { translation: zh }, en: { translation: en } },
    lng,
    fallbackLng: 'zh',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  applyDocumentLanguage(lng);
  return i18n;
}

function applyDocumentLanguage(language: Language): void {
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(language);
}

export function setLanguage(language: Language): void {
  useLanguage.setState({ language });
  void i18n.changeLanguage(language);
  applyDocumentLanguage(language);
}

export function currentLanguage(): Language {
  return useLanguage.getState().language === 'en' ? 'en' : 'zh';
}

/** Translate outside React (http toasts, document title). */
export function t(key: string, options?: Record<string, unknown>): string {
  return String(i18n.t(key, options as never));
}
