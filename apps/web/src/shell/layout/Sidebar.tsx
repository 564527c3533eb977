import { Layout, Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useLayout } from '../../platform/session/layout';
import type { NavItem } from '../menu';
import { MenuIcon } from './icons';
import { useNavMenu } from './useNavMenu';

type Item = Required<MenuProps>['items'][number];

function branchKey(item: NavItem): string {
  return item.path || item.id;
}

function toItems(items: NavItem[], externalHint: string): Item[] {
  return items.map((item): Item => {
    const icon = <MenuIcon key="icon" name={item.icon} />;
    if (item.children.length) {
      return { key: branchKey(item), icon, label: item.name, children: toItems(item.children, externalHint) };
    }
    const label = item.external ? (
      <a key={item.id} href={item.path} target="_blank" rel="noopener noreferrer">
        {item.name}
        <span className="sr-only">{externalHint}</span>
      </a>
    ) : (
      <Link key={item.id} to={item.path}>
        {item.name}
      </Link>
    );
    return { key: item.external ? `ext:${item.id}` : item.path, icon, label };
  });
}

export function Sidebar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const collapsed = useLayout((s) => s.collapsed);
  const setCollapsed = useLayout((s) => s.setCollapsed);
  const { items, entries } = useNavMenu();
  const menuItems = useMemo(() => toItems(items, t('menu.external')), [items, t]);
  const group = useMemo(() => entries.find((e) => e.path === pathname)?.group ?? [], [entries, pathname]);
  const [openKeys, setOpenKeys] = useState<string[]>(group);

  // Open the sub-menus that lead to the current page.
  useEffect(() => {
    setOpenKeys((keys) => [...new Set([...keys, ...group])]);
  }, [group]);

  const onClick: MenuProps['onClick'] = () => {
    // On small screens, picking a page collapses the sidebar.
    if (window.matchMedia?.('(max-width: 768px)').matches) setCollapsed(true);
  };

  return (
    <Layout.Sider
      collapsible
      collapsed={collapsed}
      trigger={null}
      width={220}
      breakpoint="md"
      onBreakpoint={(broken) => broken && setCollapsed(true)}
      style={{ overflow: 'auto', height: '100vh', position: 'sticky', top: 0, insetInlineStart: 0 }}
    >
      <div
        style={{
          height: 56,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          color: '#fff',
          fontSize: collapsed ? 14 : 17,
          fontWeight: 600,
          padding: '0 12px',
        }}
      >
        {collapsed ? (
          <MenuIcon name="HomeOutlined" />
        ) : (
          <span
            title={t('app.title')}
            style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', minWidth: 0 }}
          >
            {t('app.title')}
          </span>
        )}
      </div>
      <nav aria-label={t('menu.nav')}>
        {menuItems.length === 0 ? (
          <p
            role="status"
            style={{ color: 'rgba(255,255,255,.65)', textAlign: 'center', padding: '24px 12px' }}
          >
            {t('menu.empty')}
          </p>
        ) : (
          <Menu
            theme="dark"
            mode="inline"
            items={menuItems}
            selectedKeys={[pathname]}
            {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
            onClick={onClick}
          />
        )}
      </nav>
    </Layout.Sider>
  );
}
