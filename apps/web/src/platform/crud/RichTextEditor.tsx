/**
 * Formatted text (richText): a small editor — an editable area and a toolbar of bold, italic, underline,
 * heading, bulleted and numbered lists, link and clear formatting — and the read-only view. What is stored is
 * what the server leaves of the HTML (platform/crud/stored.ts on the server, sanitize-html); the view and
 * the editor also keep only that subset when they show a value, so nothing else is ever put in the page.
 */
import {
  BoldOutlined,
  ClearOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Button, Input, Space, Tooltip } from 'antd';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldControlProps } from './types';
import './rich-text.css';

/** The tags and attributes the server keeps (apps/server/src/platform/crud/stored.ts). */
const TAGS = new Set(
  'p br h1 h2 h3 h4 strong b em i u s blockquote ul ol li a table thead tbody tr th td img span hr code pre'.split(
    ' ',
  ),
);
const ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title'],
  img: ['src', 'alt'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan'],
};
const SAFE_HREF = /^(?:https?:|mailto:)/i;
const ISSUED_IMAGE = /^\/api\/dfem-hope-manage\/file\/image\//;

/**
 * The HTML with only the server's subset left: other elements are unwrapped (their text stays; scripts and
 * styles go whole), other attributes dropped, links to other schemes and images the server did not issue
 * removed. Parsed inertly (DOMParser runs no script and loads nothing).
 */
export function keepSafeHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const clean = (node: Element) => {
    for (const child of Array.from(node.children)) {
      const tag = child.tagName.toLowerCase();
      if (['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript'].includes(tag)) {
        child.remove();
        continue;
      }
      clean(child);
      if (!TAGS.has(tag) || (tag === 'img' && !ISSUED_IMAGE.test(child.getAttribute('src') ?? ''))) {
        if (tag === 'img') child.remove();
        else child.replaceWith(...Array.from(child.childNodes));
        continue;
      }
      for (const attr of Array.from(child.attributes))
        if (!ATTRIBUTES[tag]?.includes(attr.name)) child.removeAttribute(attr.name);
      if (tag === 'a') {
        const href = child.getAttribute('href') ?? '';
        if (!SAFE_HREF.test(href.trim())) child.removeAttribute('href');
        else {
          child.setAttribute('rel', 'noopener noreferrer');
          child.setAttribute('target', '_blank');
        }
      }
    }
  };
  clean(doc.body);
  return doc.body.innerHTML;
}

/** The view dialog: the formatted text as the server cleaned it. */
export function RichTextView({ value }: { value: unknown }) {
  const html = keepSafeHtml(String(value));
  return (
    <div
      className="rich-text"
      style={{ overflowWrap: 'anywhere' }}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: cleaned by the server (sanitize-html) and again by keepSafeHtml
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/** An editor's content that holds nothing to keep (no text, image or rule) is an empty value. */
const isBlank = (el: HTMLElement) => el.textContent?.trim() === '' && !el.querySelector('img, hr');

type Command = 'bold' | 'italic' | 'underline' | 'heading' | 'bulleted' | 'numbered' | 'link' | 'clear';

export function RichTextEditor({ value, onChange, disabled, id, placeholder, onBlur }: FieldControlProps) {
  const { t } = useTranslation();
  const editor = useRef<HTMLDivElement>(null);
  const saved = useRef<Range | null>(null);
  // the HTML last sent to the form: a value that differs (a reset, a record loaded) is put in the editor
  const sent = useRef<string | undefined>(undefined);
  const [state, setState] = useState<Partial<Record<Command, boolean>>>({});
  const [linking, setLinking] = useState(false);
  const [href, setHref] = useState('https://');
  const linkId = useId();

  const html = typeof value === 'string' ? value : '';
  useEffect(() => {
    const el = editor.current;
    if (el && html !== sent.current) {
      el.innerHTML = keepSafeHtml(html);
      sent.current = html;
    }
  }, [html]);

  const emit = () => {
    const el = editor.current;
    if (!el) return;
    const next = isBlank(el) ? '' : el.innerHTML;
    sent.current = next;
    onChange?.(next);
  };

  /** what the toolbar shows as pressed, for the selection in the editor */
  const readState = () => {
    const sel = document.getSelection();
    if (!sel?.rangeCount || !editor.current?.contains(sel.anchorNode)) return;
    saved.current = sel.getRangeAt(0).cloneRange();
    const block = String(document.queryCommandValue('formatBlock')).toLowerCase();
    setState({
      bold: document.queryCommandState('bold'),
      italic: document.queryCommandState('italic'),
      underline: document.queryCommandState('underline'),
      bulleted: document.queryCommandState('insertUnorderedList'),
      numbered: document.queryCommandState('insertOrderedList'),
      heading: /^h[1-4]$/.test(block),
    });
  };

  useEffect(() => {
    document.addEventListener('selectionchange', readState);
    return () => document.removeEventListener('selectionchange', readState);
  });

  /** back to the editor with its last selection (a toolbar button took the focus) */
  const restore = () => {
    const el = editor.current;
    if (!el) return;
    el.focus();
    const sel = document.getSelection();
    if (saved.current && sel && el.contains(saved.current.startContainer)) {
      sel.removeAllRanges();
      sel.addRange(saved.current);
    }
  };

  const run = (command: Command) => {
    if (command === 'link') {
      setLinking(true);
      return;
    }
    restore();
    document.execCommand('styleWithCSS', false, 'false');
    if (command === 'heading') document.execCommand('formatBlock', false, state.heading ? 'p' : 'h3');
    else if (command === 'bulleted') document.execCommand('insertUnorderedList');
    else if (command === 'numbered') document.execCommand('insertOrderedList');
    else if (command === 'clear') {
      document.execCommand('removeFormat');
      document.execCommand('unlink');
      if (state.heading) document.execCommand('formatBlock', false, 'p');
    } else document.execCommand(command);
    emit();
    readState();
  };

  const addLink = () => {
    const url = href.trim();
    setLinking(false);
    restore();
    if (SAFE_HREF.test(url) && url !== 'https://' && url !== 'http://') {
      const sel = document.getSelection();
      // with nothing selected, the address itself is the link's text
      if (sel?.isCollapsed)
        document.execCommand('insertHTML', false, `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`);
      else document.execCommand('createLink', false, url);
      emit();
    }
    setHref('https://');
  };

  const tool = (command: Command, label: string, icon: ReactNode, toggles = true) => (
    <Tooltip key={command} title={label}>
      <Button
        type={state[command] && toggles ? 'primary' : 'text'}
        size="small"
        icon={icon}
        aria-label={label}
        aria-pressed={toggles ? !!state[command] : undefined}
        disabled={disabled}
        // keep the selection in the editor when the button is clicked
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => run(command)}
      />
    </Tooltip>
  );

  return (
    <div
      className="rich-text-frame"
      style={{ background: disabled ? '#f5f5f5' : '#fff' }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) onBlur?.(e);
      }}
    >
      <div
        role="toolbar"
        aria-label={t('crud.richToolbar')}
        aria-controls={id}
        style={{ display: 'flex', flexWrap: 'wrap', gap: 2, padding: 4, borderBottom: '1px solid #f0f0f0' }}
      >
        {tool('bold', t('crud.richBold'), <BoldOutlined aria-hidden />)}
        {tool('italic', t('crud.richItalic'), <ItalicOutlined aria-hidden />)}
        {tool('underline', t('crud.richUnderline'), <UnderlineOutlined aria-hidden />)}
        {tool(
          'heading',
          t('crud.richHeading'),
          <span aria-hidden style={{ fontWeight: 600 }}>
            H
          </span>,
        )}
        {tool('bulleted', t('crud.richBulleted'), <UnorderedListOutlined aria-hidden />)}
        {tool('numbered', t('crud.richNumbered'), <OrderedListOutlined aria-hidden />)}
        {tool('link', t('crud.richLink'), <LinkOutlined aria-hidden />, false)}
        {tool('clear', t('crud.richClear'), <ClearOutlined aria-hidden />, false)}
      </div>
      {linking && (
        <Space.Compact style={{ width: '100%', padding: 4 }}>
          <Input
            id={linkId}
            autoFocus
            size="small"
            aria-label={t('crud.richLinkAddress')}
            placeholder={t('crud.richLinkAddress')}
            value={href}
            onChange={(e) => setHref(e.target.value)}
            onPressEnter={(e) => {
              e.preventDefault();
              addLink();
            }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.stopPropagation(); // not the dialog's
                setLinking(false);
                restore();
              }
            }}
          />
          <Button size="small" type="primary" onClick={addLink}>
            {t('common.ok')}
          </Button>
        </Space.Compact>
      )}
      {/* biome-ignore lint/a11y/useSemanticElements: an editable area of formatted text has no element of its own */}
      <div
        ref={editor}
        id={id}
        role="textbox"
        aria-multiline="true"
        aria-label={placeholder}
        aria-disabled={disabled || undefined}
        tabIndex={disabled ? -1 : 0}
        contentEditable={!disabled}
        suppressContentEditableWarning
        data-placeholder={placeholder}
        onInput={emit}
        onKeyUp={readState}
        onMouseUp={readState}
        className="rich-text rich-text-editor"
        style={{ minHeight: 140, maxHeight: 360, overflow: 'auto', padding: '8px 11px', outline: 'none' }}
      />
    </div>
  );
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
