/**
 * The top menu (spec §2): a home item plus the tenant's top menus. Choosing a top menu reloads the
 * sidebar from `menu/routes?topMenuId=`; the home item brings back the whole menu and the home page.
 */
import { FIRST_PAGE } from '@smart/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { getData } from '../../platform/http/client';
import { useLanguage } from '../../platform/i18n';
import { selectTopMenu, useSession } from '../../platform/session/session';
import { MenuIcon } from './icons';

interface TopMenuRow {
  id: string;
  code: string;
  name: string;
  source: string;
  sort: number;
}

const HOME_KEY = 'home';

export function TopMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const language = useLanguage((s) => s.language);
  const topMenuId = useSession((s) => s.topMenuId);
  const token = useSession((s) => s.token);
  const { data } = useQuery({
    queryKey: ['top-menu', language, token],
    queryFn: () => getData<TopMenuRow[]>('/api/dfem-system/menu/top-menu', undefined, { silent: true }),
    staleTime: 5 * 60_000,
  });

  const items: MenuProps['items'] = [
    { key: HOME_KEY, icon: <MenuIcon name="HomeOutlined" />, label: t('topMenu.home') },
    ...(data ?? []).map((row) => ({
      key: row.id,
      icon: <MenuIcon name={row.source || 'AppstoreOutlined'} />,
      label: row.name,
    })),
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === HOME_KEY) {
      void selectTopMenu('').catch(() => {});
      void navigate(FIRST_PAGE);
    } else {
      void selectTopMenu(key).catch(() => {});
    }
  };

  return (
    <nav aria-label={t('topMenu.label')} style={{ flex: 1, minWidth: 0 }}>
      <Menu
        className="shell-topmenu"
        mode="horizontal"
        items={items}
        selectedKeys={[topMenuId || HOME_KEY]}
        onClick={onClick}
      />
    </nav>
  );
}
