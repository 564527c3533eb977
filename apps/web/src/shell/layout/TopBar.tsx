import {
  BgColorsOutlined,
  BugOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  GlobalOutlined,
  LockOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SkinOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { FIRST_PAGE, TAG_BADGE_MAX } from '@smart/contracts/core';
import { App, Avatar, Badge, Button, Dropdown, Layout, type MenuProps, Popover, Tooltip } from 'antd';
import { memo, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGES, type Language, setLanguage, useLanguage } from '../../platform/i18n';
import { setColor, useColor } from '../../platform/session/appearance';
import { useErrorLog } from '../../platform/session/errorLog';
import { useLayout } from '../../platform/session/layout';
import { isGuestUser, logout, useSession } from '../../platform/session/session';
import { useSettings } from '../../platform/session/settings';
import { NoticeButton } from './NoticeButton';
import { TopMenu } from './TopMenu';
import { TopSearch } from './TopSearch';
import { openDialog, useShellUi } from './ui';

/** Preset primary colours of the colour picker (the BladeX family's list). */
export const PRESET_COLORS = [
  '#409EFF',
  '#1890FF',
  '#304156',
  '#212121',
  '#11A983',
  '#13C2C2',
  '#6959CD',
  '#F5222D',
];

function IconButton({
  label,
  icon,
  onClick,
  pressed,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  pressed?: boolean;
}) {
  return (
    <Tooltip title={label}>
      <Button type="text" icon={icon} aria-label={label} aria-pressed={pressed} onClick={onClick} />
    </Tooltip>
  );
}

/** The colour picker: preset swatches and a free choice; the colour is remembered. */
function ColorPicker() {
  const { t } = useTranslation();
  const color = useColor((s) => s.color);
  const [open, setOpen] = useState(false);
  const panel = (
    <div style={{ width: 208 }}>
      <fieldset style={{ display: 'flex', flexWrap: 'wrap', gap: 8, border: 0, margin: 0, padding: 0 }}>
        <legend className="sr-only">{t('color.presets')}</legend>
        {PRESET_COLORS.map((c) => (
          <button
            key={c}
            type="button"
            aria-pressed={c === color}
            aria-label={c}
            title={c}
            onClick={() => setColor(c)}
            style={{
              width: 20,
              height: 20,
              padding: 0,
              borderRadius: 4,
              cursor: 'pointer',
              background: c,
              border: c === color ? '2px solid rgba(0,0,0,.85)' : '1px solid rgba(0,0,0,.15)',
            }}
          />
        ))}
      </fieldset>
      <label style={{ display: 'flex', alignItems: 'center', gap: 8, marginTop: 12 }}>
        {t('color.custom')}
        <input type="color" value={color.toLowerCase()} onChange={(e) => setColor(e.target.value)} />
      </label>
    </div>
  );
  return (
    <Popover content={panel} title={t('color.title')} trigger="click" open={open} onOpenChange={setOpen}>
      <Button type="text" aria-label={t('color.title')} aria-expanded={open} icon={<BgColorsOutlined />}>
        <span className="shell-swatch" style={{ background: color }} aria-hidden />
      </Button>
    </Popover>
  );
}

function ErrorLogButton() {
  const { t } = useTranslation();
  const count = useErrorLog((s) => s.logs.length);
  return (
    <Badge count={count} overflowCount={TAG_BADGE_MAX} size="small" offset={[-4, 4]}>
      <IconButton
        label={t('log.button', { count })}
        icon={<BugOutlined />}
        onClick={() => openDialog('log')}
      />
    </Badge>
  );
}

function FullscreenButton() {
  const { t } = useTranslation();
  const [full, setFull] = useState(Boolean(document.fullscreenElement));
  useEffect(() => {
    const onChange = () => setFull(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else void document.documentElement.requestFullscreen?.().catch(() => {});
  };
  return (
    <IconButton
      label={full ? t('navbar.exitFullscreen') : t('navbar.fullscreen')}
      pressed={full}
      icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
      onClick={toggle}
    />
  );
}

/** memo: drawn on its own stores and location, not at each render of the layout (see Layout) */
export const TopBar = memo(function TopBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const collapsed = useLayout((s) => s.collapsed);
  const toggle = useLayout((s) => s.toggle);
  const language = useLanguage((s) => s.language);
  const screen = useShellUi((s) => s.screen);
  const switchMode = useSettings((s) => s.settings.switchMode);
  const user = useSession((s) => s.userInfo);
  const guest = isGuestUser(user);
  const displayName = user?.realName || user?.name || user?.account || '';

  const languageItems: MenuProps['items'] = LANGUAGES.map((lang: Language) => ({
    key: lang,
    label: <span lang={lang === 'en' ? 'en' : 'zh-CN'}>{t(`lang.${lang}`)}</span>,
  }));

  const confirmLogout = () => {
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t('navbar.logoutTip'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        await logout();
        await navigate('/login', { replace: true });
      },
    });
  };

  const userItems: MenuProps['items'] = [
    { key: 'home', label: t('navbar.home') },
    { key: 'info', label: t('navbar.userInfo') },
    ...(switchMode ? [{ key: 'switch', label: t('navbar.switch') }] : []),
    { type: 'divider' as const },
    { key: 'logout', label: t('navbar.logout'), danger: true },
  ];

  const onUserClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'home') void navigate(FIRST_PAGE);
    else if (key === 'info') void navigate('/info/index');
    else if (key === 'switch') openDialog('switch');
    else if (key === 'logout') confirmLogout();
  };

  return (
    <Layout.Header
      className="shell-header"
      aria-label={t('navbar.header')}
      style={{
        background: 'var(--shell-header-bg)',
        padding: '0 12px 0 8px',
        height: 56,
        lineHeight: '56px',
        display: 'flex',
        alignItems: 'center',
        gap: 4,
        boxShadow: '0 1px 4px rgba(0,21,41,.08)',
        position: 'relative',
        zIndex: 2,
      }}
    >
      <Button
        type="text"
        className="shell-menu-toggle"
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        aria-label={collapsed ? t('navbar.expand') : t('navbar.collapse')}
        aria-expanded={!collapsed}
        onClick={toggle}
      />
      {!guest && screen >= 2 ? <TopMenu /> : <div style={{ flex: 1 }} />}
      {!guest && screen >= 1 && <TopSearch />}
      {!guest && <NoticeButton />}
      <ColorPicker />
      <ErrorLogButton />
      {!guest && (
        <IconButton label={t('lock.button')} icon={<LockOutlined />} onClick={() => openDialog('lock')} />
      )}
      <IconButton label={t('theme.button')} icon={<SkinOutlined />} onClick={() => openDialog('theme')} />
      {screen >= 1 && <FullscreenButton />}
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
          {screen >= 1 && t(`lang.${language}`)}
        </Button>
      </Dropdown>
      <Dropdown menu={{ items: userItems, onClick: onUserClick }} trigger={['click']}>
        <Button type="text" aria-label={t('navbar.userMenu', { name: displayName })} style={{ height: 40 }}>
          <Avatar size={28} src={user?.avatar || undefined} icon={<UserOutlined />} alt="" />
          {screen >= 1 && <span style={{ marginInlineStart: 8 }}>{displayName}</span>}
        </Button>
      </Dropdown>
    </Layout.Header>
  );
});
