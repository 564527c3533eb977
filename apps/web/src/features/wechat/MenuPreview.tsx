/**
 * The custom menu in a phone: WeChat's bottom bar — the input box's keyboard key, then the top-level buttons
 * side by side — and the chosen button's sub-buttons popping up over it, as a follower sees them. Every
 * button is a button: choosing one here chooses it in the editor. The chosen one is outlined in the theme's
 * primary colour, the one a check refuses in its error colour (with a mark, not by colour alone).
 */
import { ExclamationCircleFilled, MenuOutlined, WechatOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { type MenuSel, sameSel, type WxMenu, type WxMenuButton, within } from './menu-editor';

interface Props {
  menu: WxMenu;
  accountName: string;
  sel: MenuSel | null;
  /** the button a check refuses */
  bad: MenuSel | null;
  onSelect: (sel: MenuSel) => void;
}

export function MenuPreview({ menu, accountName, sel, bad, onSelect }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const nameOf = (b: WxMenuButton | undefined) => b?.name?.trim() || t('wxmp.menu.unnamed');
  const open = sel ? menu.button[sel.i] : undefined;

  // a top-level button is marked for its sub-buttons' problems too: they may be folded away
  const isBad = (at: MenuSel) => (at.j === undefined ? within(bad, at.i) : sameSel(at, bad));
  const cell = (at: MenuSel, sub: boolean): CSSProperties => {
    const chosen = sameSel(at, sel);
    const wrong = isBad(at);
    return {
      width: '100%',
      minHeight: sub ? 40 : 48,
      padding: '4px 6px',
      background: chosen ? token.colorPrimaryBg : token.colorBgContainer,
      color: token.colorText,
      border: 'none',
      outline: wrong
        ? `2px solid ${token.colorError}`
        : chosen
          ? `2px solid ${token.colorPrimary}`
          : undefined,
      outlineOffset: -2,
      cursor: 'pointer',
      fontSize: 13,
      lineHeight: 1.3,
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      gap: 4,
      wordBreak: 'break-all',
    };
  };

  const mark = (at: MenuSel) =>
    isBad(at) ? <ExclamationCircleFilled style={{ color: token.colorError }} aria-hidden /> : null;

  return (
    <section
      aria-label={t('wxmp.menu.preview')}
      style={{
        width: 300,
        height: 480,
        flex: 'none',
        border: `10px solid ${token.colorTextTertiary}`,
        borderRadius: 36,
        background: token.colorBgLayout,
        display: 'flex',
        flexDirection: 'column',
        overflow: 'hidden',
      }}
    >
      <div
        style={{
          padding: '12px 16px',
          background: token.colorFillSecondary,
          color: token.colorText,
          fontWeight: 600,
          textAlign: 'center',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          gap: 6,
        }}
      >
        <WechatOutlined aria-hidden />
        <span>{accountName}</span>
      </div>
      <div style={{ flex: 1 }} />
      <nav
        aria-label={t('wxmp.menu.previewBar')}
        style={{
          display: 'grid',
          gridTemplateColumns: `40px repeat(${Math.max(menu.button.length, 1)}, 1fr)`,
          borderTop: `1px solid ${token.colorBorder}`,
          background: token.colorBgContainer,
        }}
      >
        <span
          role="img"
          aria-label={t('wxmp.menu.keyboard')}
          style={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            color: token.colorTextSecondary,
            borderRight: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          ⌨
        </span>
        {menu.button.map((b, i) => {
          const at = { i };
          const subs = b.sub_button ?? [];
          return (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: a button is its place in the menu
              key={i}
              style={{
                position: 'relative',
                borderLeft: i ? `1px solid ${token.colorBorderSecondary}` : undefined,
              }}
            >
              {open === b && subs.length > 0 && (
                <ul
                  aria-label={t('wxmp.menu.previewSubs', { name: nameOf(b) })}
                  style={{
                    position: 'absolute',
                    bottom: 'calc(100% + 8px)',
                    left: 4,
                    right: 4,
                    margin: 0,
                    padding: 0,
                    listStyle: 'none',
                    background: token.colorBgContainer,
                    border: `1px solid ${token.colorBorder}`,
                    borderRadius: token.borderRadius,
                    boxShadow: token.boxShadowSecondary,
                    overflow: 'hidden',
                  }}
                >
                  {subs.map((s, j) => (
                    <li
                      // biome-ignore lint/suspicious/noArrayIndexKey: a sub-button is its place under its parent
                      key={j}
                      style={{ borderTop: j ? `1px solid ${token.colorBorderSecondary}` : undefined }}
                    >
                      <button
                        type="button"
                        aria-pressed={sameSel({ i, j }, sel)}
                        aria-invalid={isBad({ i, j }) || undefined}
                        style={cell({ i, j }, true)}
                        onClick={() => onSelect({ i, j })}
                      >
                        {mark({ i, j })}
                        {nameOf(s)}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              <button
                type="button"
                aria-pressed={sameSel(at, sel)}
                aria-expanded={subs.length > 0 ? open === b : undefined}
                aria-invalid={isBad(at) || undefined}
                style={cell(at, false)}
                onClick={() => onSelect(at)}
              >
                {mark(at)}
                {subs.length > 0 && <MenuOutlined aria-hidden style={{ fontSize: 10 }} />}
                {nameOf(b)}
              </button>
            </div>
          );
        })}
        {menu.button.length === 0 && <span />}
      </nav>
    </section>
  );
}
