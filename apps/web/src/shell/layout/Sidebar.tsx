import { Layout, Menu, type MenuProps } from 'antd';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useTheme } from '../../platform/session/appearance';
import { useLayout } from '../../platform/session/layout';
import { menuTarget, type NavItem } from '../menu';
import { MenuIcon } from './icons';
import { SHELL_THEMES } from './themes';
import { useShellUi } from './ui';
import { tabValue, useSideMenu } from './useNavMenu';

type Item = Required<MenuProps>['items'][number];

/**
 * The folded menu's pop-ups open beside their item, and shift up as far as they must to stay on screen
 * (antd's own placement only flips them, which fails for a long list low in the sidebar; past the
 * viewport's height the list scrolls).
 */
const POPUP_PLACEMENTS = {
  rightTop: { points: ['tl', 'tr'], overflow: { adjustX: true, shiftY: true } },
};

function branchKey(item: NavItem): string {
  return item.path || item.id;
}

/** Leaves: app pages by path, external pages in the app by their URL, new-window links never selected. */
function leafKey(item: NavItem): string {
  return item.external && item.newWindow ? `ext:${item.id}` : item.path;
}

function toItems(items: NavItem[], externalHint: string): Item[] {
  return items.map((item): Item => {
    const icon = <MenuIcon key="icon" name={item.icon} />;
    if (item.children.length) {
      return { key: branchKey(item), icon, label: item.name, children: toItems(item.children, externalHint) };
    }
    const target = menuTarget(item);
    const label = target.newWindow ? (
      <a key={item.id} href={target.href} target="_blank" rel="noopener noreferrer">
        {item.name}
        <span className="sr-only">{externalHint}</span>
      </a>
    ) : (
      <Link key={item.id} to={target.href}>
        {item.name}
      </Link>
    );
    return { key: leafKey(item), icon, label };
  });
}

/** `keys` with `open` the only top group open (its sub-menus and those of no top group kept). */
export function accordion(keys: string[], open: string | undefined, topKeys: Set<string>): string[] {
  return [...new Set(keys.filter((k) => !topKeys.has(k) || k === open))];
}

/** memo: drawn on its own stores and location, not at each render of the layout (see Layout) */
export const Sidebar = memo(function Sidebar() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const collapsed = useLayout((s) => s.collapsed);
  const setCollapsed = useLayout((s) => s.setCollapsed);
  const screen = useShellUi((s) => s.screen);
  const themeName = useTheme((s) => s.theme);
  const { items, entries } = useSideMenu();
  const menuItems = useMemo(() => toItems(items, t('menu.external')), [items, t]);
  const current = tabValue(pathname, search);
  // deferred: the page a click opens is drawn first, the menu's highlight (a render of every item) just after
  const selected = useDeferredValue(entries.some((e) => e.path === current) ? current : pathname);
  const group = useMemo(() => entries.find((e) => e.path === selected)?.group ?? [], [entries, selected]);
  const [openKeys, setOpenKeys] = useState<string[]>(group);
  // the top groups: one open at a time (an accordion), so the menu stays about a screen high
  const topKeys = useMemo(() => new Set(items.filter((i) => i.children.length).map(branchKey)), [items]);

  const selectedKeys = useMemo(() => [selected], [selected]);

  // Open the sub-menus that lead to the current page, closing the other top groups (the same keys kept:
  // no second render of the menu).
  useEffect(() => {
    setOpenKeys((keys) =>
      group.every((key) => keys.includes(key)) ? keys : accordion([...keys, ...group], group[0], topKeys),
    );
  }, [group, topKeys]);

  const onOpenChange = useCallback(
    (keys: string[]) => {
      const opened = keys.find((k) => !openKeys.includes(k));
      setOpenKeys(opened && topKeys.has(opened) ? accordion(keys, opened, topKeys) : keys);
    },
    [openKeys, topKeys],
  );

  // Small screens start with the sidebar folded away.
  useEffect(() => {
    if (screen === 0) setCollapsed(true);
  }, [screen, setCollapsed]);

  const onClick = useCallback<NonNullable<MenuProps['onClick']>>(() => {
    // On small screens (below 768 px), picking a page collapses the sidebar.
    if (useShellUi.getState().screen === 0) setCollapsed(true);
  }, [setCollapsed]);

  // the same element while nothing it shows changed: the sidebar renders at every navigation, antd's menu
  // then renders every item again
  const menu = useMemo(
    () => (
      <Menu
        theme={SHELL_THEMES[themeName].menu}
        mode="inline"
        items={menuItems}
        selectedKeys={selectedKeys}
        {...(collapsed ? {} : { openKeys, onOpenChange })}
        onClick={onClick}
        builtinPlacements={POPUP_PLACEMENTS}
      />
    ),
    [themeName, menuItems, selectedKeys, collapsed, openKeys, onOpenChange, onClick],
  );

  // on a phone the open menu lies over the page (which keeps its width), above a backdrop that closes it
  const phone = screen === 0;

  // Escape closes it too, and the focus goes back to the button that opened it
  useEffect(() => {
    if (!phone || collapsed) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      setCollapsed(true);
      document.querySelector<HTMLElement>('.shell-menu-toggle')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [phone, collapsed, setCollapsed]);

  return (
    <>
      <Layout.Sider
        className={phone ? 'shell-sider shell-sider-phone' : 'shell-sider'}
        collapsible
        collapsed={collapsed}
        collapsedWidth={screen === 0 ? 0 : 80}
        trigger={null}
        width={220}
        style={{ height: '100vh', background: 'var(--shell-sider-bg)' }}
      >
        <div
          className="shell-logo"
          style={{
            height: 56,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            fontSize: collapsed ? 14 : 17,
            fontWeight: 600,
            padding: '0 12px',
          }}
        >
          {collapsed ? (
            <MenuIcon name="HomeOutlined" />
          ) : (
            // a long (English) title wraps onto a second line rather than being cut
            <span style={{ lineHeight: 1.2, textAlign: 'center', minWidth: 0, overflowWrap: 'anywhere' }}>
              {t('app.title')}
            </span>
          )}
        </div>
        {/* the logo stays put; the menu scrolls under it */}
        <nav aria-label={t('menu.nav')} className="shell-sider-nav">
          {menuItems.length === 0 ? (
            <p
              role="status"
              style={{ color: 'var(--shell-logo-color)', textAlign: 'center', padding: '24px 12px' }}
            >
              {t('menu.empty')}
            </p>
          ) : (
            menu
          )}
        </nav>
      </Layout.Sider>
      {phone && !collapsed && (
        <button
          type="button"
          className="shell-backdrop"
          tabIndex={-1}
          aria-label={t('navbar.collapse')}
          onClick={() => setCollapsed(true)}
        />
      )}
    </>
  );
});
