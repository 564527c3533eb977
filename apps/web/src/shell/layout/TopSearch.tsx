/**
 * The top bar's autocomplete search over the user's menu (spec §2): names starting with the typed text,
 * ignoring case, in the current language. A small ARIA combobox: arrows move, Enter opens, Esc closes.
 */
import { SearchOutlined } from '@ant-design/icons';
import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '../../platform/ui/light-input';
import { searchMenu } from '../menu';
import { useNavMenu } from './useNavMenu';
import { useOpenMenu } from './useOpenMenu';

export function TopSearch() {
  const { t } = useTranslation();
  const id = useId();
  const { entries } = useNavMenu();
  const open = useOpenMenu();
  const [text, setText] = useState('');
  const [expanded, setExpanded] = useState(false);
  const [active, setActive] = useState(0);
  const results = useMemo(() => searchMenu(entries, text, 20), [entries, text]);
  const showList = expanded && results.length > 0;

  const choose = (index: number) => {
    const entry = results[index];
    if (!entry) return;
    setText('');
    setExpanded(false);
    open(entry);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setExpanded(true);
      setActive((i) => Math.min(i + 1, results.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter') {
      if (showList) {
        event.preventDefault();
        choose(active);
      }
    } else if (event.key === 'Escape') {
      setExpanded(false);
    }
  };

  return (
    <div className="shell-search">
      <Input
        role="combobox"
        aria-label={t('search.label')}
        aria-expanded={showList}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={showList ? `${id}-opt-${active}` : undefined}
        placeholder={t('search.placeholder')}
        prefix={<SearchOutlined aria-hidden />}
        allowClear
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          setExpanded(true);
        }}
        onFocus={() => setExpanded(true)}
        onBlur={() => setTimeout(() => setExpanded(false), 150)}
        onKeyDown={onKeyDown}
      />
      <div
        id={`${id}-list`}
        role="listbox"
        aria-label={t('search.results')}
        className="shell-search-list"
        hidden={!showList}
      >
        {results.map((entry, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard works through the combobox (aria-activedescendant)
          <div
            key={entry.path}
            tabIndex={-1}
            id={`${id}-opt-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => setActive(i)}
            onClick={() => choose(i)}
          >
            {entry.name}
          </div>
        ))}
      </div>
    </div>
  );
}
