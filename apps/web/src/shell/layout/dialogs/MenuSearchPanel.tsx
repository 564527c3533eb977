/**
 * The menu-search panel (spec §2): a full-width panel over the page; names that start with the text,
 * ignoring case; Esc closes it.
 */
import { SearchOutlined } from '@ant-design/icons';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input, type InputRef } from '../../../platform/ui/light-input';
import { searchMenu } from '../../menu';
import { MenuIcon } from '../icons';
import { closeDialog } from '../ui';
import { useNavMenu } from '../useNavMenu';
import { useOpenMenu } from '../useOpenMenu';

export default function MenuSearchPanel() {
  const { t } = useTranslation();
  const id = useId();
  const { items, entries } = useNavMenu();
  const open = useOpenMenu();
  const input = useRef<InputRef>(null);
  const [text, setText] = useState('');
  const results = useMemo(() => searchMenu(entries, text), [entries, text]);
  const icons = useMemo(() => {
    const map = new Map<string, string>();
    const walk = (list: typeof items) => {
      for (const item of list) {
        map.set(item.path, item.icon);
        walk(item.children);
      }
    };
    walk(items);
    return map;
  }, [items]);

  useEffect(() => {
    input.current?.focus();
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') closeDialog();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const choose = (index: number) => {
    const entry = results[index];
    if (!entry) return;
    closeDialog();
    open(entry);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && results.length) choose(0);
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click beside the panel closes it; Esc does it from the keyboard
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 1100,
        background: 'rgba(255,255,255,.97)',
        color: 'rgba(0,0,0,.88)',
        padding: '48px 10vw',
        overflow: 'auto',
      }}
      onClick={(e) => e.target === e.currentTarget && closeDialog()}
    >
      <h2 id={`${id}-title`} style={{ fontSize: 20, margin: '0 0 16px' }}>
        {t('search.panelTitle')}
      </h2>
      <Input
        ref={input}
        size="large"
        prefix={<SearchOutlined aria-hidden />}
        aria-label={t('search.label')}
        placeholder={t('search.placeholder')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <p style={{ color: 'var(--ant-color-text-secondary, #606266)', margin: '8px 0 16px', fontSize: 13 }}>
        {t('search.escHint')}
      </p>
      <ul aria-label={t('search.results')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {results.map((entry, i) => (
          <li key={entry.path}>
            <button
              type="button"
              onClick={() => choose(i)}
              style={{
                display: 'flex',
                gap: 12,
                alignItems: 'center',
                width: '100%',
                padding: '10px 12px',
                border: 0,
                borderBottom: '1px solid rgba(5,5,5,.06)',
                background: 'transparent',
                cursor: 'pointer',
                textAlign: 'left',
                fontSize: 15,
                color: 'inherit',
              }}
            >
              <MenuIcon name={icons.get(entry.path) ?? 'AppstoreOutlined'} />
              <span>{entry.name}</span>
              <span
                style={{
                  color: 'var(--ant-color-text-secondary, #606266)',
                  fontSize: 12,
                  marginInlineStart: 'auto',
                }}
              >
                {entry.path}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {text.trim() && results.length === 0 && <p role="status">{t('search.none')}</p>}
    </div>
  );
}
