/**
 * The eleven layout themes (spec §2): each sets the header, sidebar and page colours through a few CSS
 * variables on the shell and antd's tokens (dark also switches antd to its dark algorithm). The primary
 * colour comes from the colour picker, whatever the theme.
 */
import { theme as antdTheme, type ThemeConfig } from 'antd';
import type { CSSProperties } from 'react';
import type { TextKey } from '../../platform/i18n';
import type { ThemeName } from '../../platform/session/appearance';
import { mix, readableOnWhite } from '../../platform/ui/colour';

export interface ShellTheme {
  /** i18n key of its name */
  label: TextKey;
  dark: boolean;
  /** the sidebar menu in antd's dark or light style */
  menu: 'dark' | 'light';
  headerBg: string;
  headerColor: string;
  siderBg: string;
  /** the logo strip above the menu */
  logoBg: string;
  logoColor: string;
  /** menu text, and the selected item's background when it is not the primary colour */
  menuColor: string;
  menuSelectedBg?: string;
  menuSelectedColor?: string;
  tagsBg: string;
  bodyBg: string;
  radius: number;
}

export const SHELL_THEMES: Record<ThemeName, ShellTheme> = {
  'theme-default': {
    label: 'theme.default',
    dark: false,
    menu: 'dark',
    headerBg: '#ffffff',
    headerColor: 'rgba(0,0,0,0.88)',
    siderBg: '#20222a',
    logoBg: '#20222a',
    logoColor: '#ffffff',
    menuColor: 'rgba(255,255,255,0.75)',
    tagsBg: '#ffffff',
    bodyBg: '#f0f2f5',
    radius: 6,
  },
  'theme-white': {
    label: 'theme.white',
    dark: false,
    menu: 'light',
    headerBg: '#ffffff',
    headerColor: 'rgba(0,0,0,0.88)',
    siderBg: '#ffffff',
    logoBg: '#ffffff',
    logoColor: '#303133',
    menuColor: '#303133',
    tagsBg: '#fafafa',
    bodyBg: '#f5f7fa',
    radius: 6,
  },
  'theme-dark': {
    label: 'theme.dark',
    dark: true,
    menu: 'dark',
    headerBg: '#1f1f1f',
    headerColor: 'rgba(255,255,255,0.85)',
    siderBg: '#141414',
    logoBg: '#141414',
    logoColor: '#ffffff',
    menuColor: 'rgba(255,255,255,0.7)',
    tagsBg: '#1f1f1f',
    bodyBg: '#000000',
    radius: 6,
  },
  'theme-star': {
    label: 'theme.star',
    dark: false,
    menu: 'dark',
    headerBg: '#24243e',
    headerColor: '#ffffff',
    siderBg: 'linear-gradient(180deg, #0f0c29 0%, #302b63 60%, #24243e 100%)',
    logoBg: '#0f0c29',
    logoColor: '#ffffff',
    menuColor: 'rgba(255,255,255,0.8)',
    tagsBg: '#f4f3fb',
    bodyBg: '#eceaf6',
    radius: 8,
  },
  'theme-smart': {
    label: 'theme.smart',
    dark: false,
    menu: 'dark',
    headerBg: '#1d4fa1',
    headerColor: '#ffffff',
    siderBg: '#0d2c5e',
    logoBg: '#0a234b',
    logoColor: '#ffffff',
    menuColor: 'rgba(255,255,255,0.8)',
    tagsBg: '#eef4ff',
    bodyBg: '#e8f0fc',
    radius: 4,
  },
  'theme-iview': {
    label: 'theme.iview',
    dark: false,
    menu: 'dark',
    headerBg: '#ffffff',
    headerColor: '#515a6e',
    siderBg: '#515a6e',
    logoBg: '#464c5b',
    logoColor: '#ffffff',
    menuColor: 'rgba(255,255,255,0.8)',
    tagsBg: '#f8f8f9',
    bodyBg: '#f5f7f9',
    radius: 4,
  },
  'theme-vip': {
    label: 'theme.vip',
    dark: false,
    menu: 'dark',
    headerBg: '#262626',
    headerColor: '#f5c26b',
    siderBg: '#1c1c1c',
    logoBg: '#141414',
    logoColor: '#f5c26b',
    menuColor: '#e6c58e',
    menuSelectedBg: '#f5c26b',
    menuSelectedColor: '#1c1c1c',
    tagsBg: '#fffaf0',
    bodyBg: '#f7f3ea',
    radius: 2,
  },
  'theme-cool': {
    label: 'theme.cool',
    dark: false,
    menu: 'dark',
    headerBg: 'linear-gradient(90deg, #7b2ff7 0%, #b5179e 100%)',
    headerColor: '#ffffff',
    siderBg: 'linear-gradient(180deg, #3a0ca3 0%, #7209b7 100%)',
    logoBg: '#3a0ca3',
    logoColor: '#ffffff',
    menuColor: 'rgba(255,255,255,0.85)',
    tagsBg: '#faf5ff',
    bodyBg: '#f6f0fb',
    radius: 10,
  },
  'theme-d2': {
    label: 'theme.d2',
    dark: false,
    menu: 'light',
    headerBg: '#ebf1f6',
    headerColor: '#2f4f6f',
    siderBg: '#ebf1f6',
    logoBg: '#ebf1f6',
    logoColor: '#2f4f6f',
    menuColor: '#2f4f6f',
    menuSelectedBg: '#d3e3f5',
    menuSelectedColor: '#1f3f5f',
    tagsBg: '#f5f8fb',
    bodyBg: '#ffffff',
    radius: 4,
  },
  'theme-hey': {
    label: 'theme.hey',
    dark: false,
    menu: 'dark',
    headerBg: '#ffffff',
    headerColor: '#3a3f51',
    siderBg: '#3a3f51',
    logoBg: '#313545',
    logoColor: '#ffffff',
    menuColor: 'rgba(255,255,255,0.78)',
    tagsBg: '#f3f3f3',
    bodyBg: '#f0f0f0',
    radius: 3,
  },
  'theme-lte': {
    label: 'theme.lte',
    dark: false,
    menu: 'dark',
    headerBg: '#3c8dbc',
    headerColor: '#ffffff',
    siderBg: '#222d32',
    logoBg: '#367fa9',
    logoColor: '#ffffff',
    menuColor: '#b8c7ce',
    tagsBg: '#ecf0f5',
    bodyBg: '#ecf0f5',
    radius: 0,
  },
};

/**
 * antd's theme for a layout theme and a primary colour. The chosen colour stays antd's colorPrimary
 * (borders, tints, focus, the ink bar); text in that colour and solid fills under white text use its
 * readable shade (WCAG AA on light themes).
 */
/** `motion` false (the system asks for reduced motion) turns antd's animations off. */
export function antdThemeFor(name: ThemeName, primary: string, motion = true): ThemeConfig {
  const s = SHELL_THEMES[name];
  const readable = readableOnWhite(primary);
  const text = s.dark ? primary : readable;
  const menuTokens = {
    darkItemBg: 'transparent',
    darkSubMenuItemBg: 'rgba(0,0,0,0.18)',
    darkItemColor: s.menuColor,
    darkItemHoverColor: '#ffffff',
    darkPopupBg: s.logoBg,
    darkItemSelectedBg: s.menuSelectedBg ?? readable,
    itemBg: 'transparent',
    subMenuItemBg: 'transparent',
    itemColor: s.menuColor,
    itemSelectedColor: s.menuSelectedColor ?? text,
    horizontalItemSelectedColor: text,
    ...(s.menuSelectedBg
      ? {
          darkItemSelectedColor: s.menuSelectedColor,
          itemSelectedBg: s.menuSelectedBg,
        }
      : {}),
  };
  return {
    algorithm: s.dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      motion,
      colorPrimary: primary,
      colorLink: text,
      borderRadius: s.radius,
      // antd's secondary grey (45 % black) is 3.4:1 on white: darker, to reach 4.5:1
      // and its red (#ff4d4f, 3.3:1) is darkened the same way as the primary colour
      ...(s.dark
        ? {}
        : {
            colorTextDescription: 'rgba(0,0,0,0.62)',
            colorTextTertiary: 'rgba(0,0,0,0.6)',
            colorError: readableOnWhite('#FF4D4F'),
          }),
    },
    components: {
      Layout: { siderBg: 'transparent', headerBg: 'transparent', bodyBg: s.bodyBg, headerPadding: 0 },
      Menu: menuTokens,
      Button: {
        colorPrimary: readable,
        colorPrimaryHover: mix(readable, '#000000', 0.12),
        colorPrimaryActive: mix(readable, '#000000', 0.24),
      },
      Tabs: { itemSelectedColor: text, itemHoverColor: text, itemActiveColor: text, inkBarColor: primary },
      Pagination: { itemActiveColor: text, itemActiveColorHover: text },
    },
  };
}

/** The CSS variables of the shell for a layout theme and a primary colour. */
export function shellCssVars(name: ThemeName, primary: string): CSSProperties {
  const s = SHELL_THEMES[name];
  return {
    '--shell-primary': primary,
    '--shell-primary-text': readableOnWhite(primary),
    '--shell-header-bg': s.headerBg,
    '--shell-header-color': s.headerColor,
    '--shell-sider-bg': s.siderBg,
    '--shell-logo-bg': s.logoBg,
    '--shell-logo-color': s.logoColor,
    '--shell-tags-bg': s.tagsBg,
    '--shell-body-bg': s.bodyBg,
  } as CSSProperties;
}
