import { GlobalOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { FIRST_PAGE } from '@smart/contracts';
import { App, Avatar, Button, Dropdown, Layout, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGES, type Language, setLanguage, useLanguage } from '../../platform/i18n';
import { useLayout } from '../../platform/session/layout';
import { logout, useSession } from '../../platform/session/session';

export function TopBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const collapsed = useLayout((s) => s.collapsed);
  const toggle = useLayout((s) => s.toggle);
  const language = useLanguage((s) => s.language);
  const user = useSession((s) => s.userInfo);
  const displayName = user?.realName || user?.name || user?.account || '';

  const languageItems: MenuProps['items'] = LANGUAGES.map((lang: Language) => ({
    key: lang,
    label: <span lang={lang === 'en' ? 'en' : 'zh-CN'}>{t(`lang.${lang}`)}</span>,
  }));

  const confirmLogout = () => {
    modal.confirm({
      title: t('navbar.tip'),
      content: t('navbar.logoutTip'),
      okText: t('navbar.confirm'),
      cancelText: t('navbar.cancel'),
      onOk: async () => {
        await logout();
        await navigate('/login', { replace: true });
      },
    });
  };

  const userItems: MenuProps['items'] = [
    { key: 'home', label: t('navbar.home') },
    { key: 'info', label: t('navbar.userInfo') },
    { type: 'divider' },
    { key: 'logout', label: t('navbar.logout'), danger: true },
  ];

  const onUserClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'home') void navigate(FIRST_PAGE);
    else if (key === 'info') void navigate('/info/index');
    else if (key === 'logout') confirmLogout();
  };

  return (
    <Layout.Header
      aria-label={t('navbar.header')}
      style={{
        background: '#fff',
        padding: '0 16px 0 8px',
        height: 56,
        lineHeight: '56px',
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        boxShadow: '0 1px 4px rgba(0,21,41,.08)',
        position: 'relative',
        zIndex: 2,
      }}
    >
      <Button
        type="text"
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        aria-label={collapsed ? t('navbar.expand') : t('navbar.collapse')}
        aria-expanded={!collapsed}
        onClick={toggle}
      />
      <div style={{ flex: 1 }} />
      <Dropdown
        menu={{
          items: languageItems,
          selectable: true,
          selectedKeys: [language],
          onClick: ({ key }) => setLanguage(key as Language),
        }}
        trigger={['click']}
      >
        <Button
          type="text"
          icon={<GlobalOutlined />}
          aria-label={`${t('lang.switch')}: ${t(`lang.${language}`)}`}
        >
          {t(`lang.${language}`)}
        </Button>
      </Dropdown>
      <Dropdown menu={{ items: userItems, onClick: onUserClick }} trigger={['click']}>
        <Button type="text" aria-label={t('navbar.userMenu', { name: displayName })} style={{ height: 40 }}>
          <Avatar size={28} src={user?.avatar || undefined} icon={<UserOutlined />} alt="" />
          <span style={{ marginInlineStart: 8 }}>{displayName}</span>
        </Button>
      </Dropdown>
    </Layout.Header>
  );
}
