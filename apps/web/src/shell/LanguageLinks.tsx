import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language, setLanguage, useLanguage } from '../platform/i18n';
import { useColor } from '../platform/session/appearance';
import { readableOnWhite } from '../platform/ui/colour';

/** 中文 / English as two plain buttons: used where antd's Dropdown is too heavy (the login page). */
export function LanguageLinks({ color = '#606266' }: { color?: string }) {
  const { t } = useTranslation();
  const language = useLanguage((s) => s.language);
  const active = readableOnWhite(useColor((s) => s.color));
  return (
    <fieldset style={{ display: 'flex', gap: 4, alignItems: 'center', border: 0, margin: 0, padding: 0 }}>
      <legend className="sr-only">{t('lang.switch')}</legend>
      {LANGUAGES.map((lang: Language, i) => (
        <span key={lang} style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
          {i > 0 && (
            <span aria-hidden="true" style={{ color }}>
              /
            </span>
          )}
          <button
            type="button"
            lang={lang === 'en' ? 'en' : 'zh-CN'}
            aria-pressed={language === lang}
            onClick={() => setLanguage(lang)}
            style={{
              background: 'none',
              border: 'none',
              cursor: 'pointer',
              padding: '2px 4px',
              color: language === lang ? active : color,
              fontWeight: language === lang ? 600 : 400,
              fontSize: 14,
            }}
          >
            {t(`lang.${lang}`)}
          </button>
        </span>
      ))}
    </fieldset>
  );
}
