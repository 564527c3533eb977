/** The theme picker (spec §2): the eleven layout themes, each previewed; the choice is remembered. */
import { CheckOutlined } from '@ant-design/icons';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { setTheme, THEMES, useTheme } from '../../../platform/session/appearance';
import { SHELL_THEMES } from '../themes';
import { closeDialog } from '../ui';

export default function ThemeDialog() {
  const { t } = useTranslation();
  const current = useTheme((s) => s.theme);
  return (
    <Modal open title={t('theme.title')} width={640} footer={null} onCancel={closeDialog} destroyOnHidden>
      <fieldset
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(130px, 1fr))',
          gap: 12,
          border: 0,
          margin: 0,
          padding: 0,
        }}
      >
        <legend className="sr-only">{t('theme.title')}</legend>
        {THEMES.map((name) => {
          const s = SHELL_THEMES[name];
          const checked = name === current;
          return (
            <button
              key={name}
              type="button"
              aria-pressed={checked}
              data-theme-option={name}
              onClick={() => setTheme(name)}
              style={{
                padding: 6,
                borderRadius: 8,
                cursor: 'pointer',
                background: 'transparent',
                border: checked ? '2px solid var(--ant-color-primary, #409eff)' : '1px solid rgba(5,5,5,.15)',
                textAlign: 'left',
                color: 'inherit',
              }}
            >
              <span
                aria-hidden
                style={{
                  display: 'flex',
                  height: 64,
                  borderRadius: 4,
                  overflow: 'hidden',
                  background: s.bodyBg,
                }}
              >
                <span style={{ width: 28, background: s.siderBg }} />
                <span style={{ flex: 1, display: 'flex', flexDirection: 'column' }}>
                  <span style={{ height: 14, background: s.headerBg }} />
                  <span style={{ height: 8, background: s.tagsBg }} />
                </span>
              </span>
              <span style={{ display: 'flex', alignItems: 'center', gap: 4, marginTop: 6 }}>
                {checked && <CheckOutlined aria-hidden />}
                {t(s.label)}
              </span>
            </button>
          );
        })}
      </fieldset>
    </Modal>
  );
}
