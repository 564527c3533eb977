/**
 * The eleven layout themes (spec §2): each sets the header, sidebar and page colours through a few CSS
 * variables on the shell and antd's tokens (dark also switches antd to its dark algorithm). The primary
 * colour comes from the colour picker, whatever the theme.
 */
import { theme as antdTheme, type ThemeConfig } from 'antd';
import type { CSSProperties } from 'react';
import type { TextKey } from '../../platform/i18n';
import type { ThemeName } from '../../platform/session/appearance';
import { contrast, inkOn, mix, readableOn, readableOnWhite } from '../../platform/ui/colour';

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
  /** on a dark menu, the title of the open sub-menu that holds the current page (default white) */
  menuOpenColor?: string;
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
    menuOpenColor: '#f5c26b',
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
    // AdminLTE's blues, a shade darker: white on #3c8dbc is 3.7:1, on these 4.6:1 and 5.2:1
    headerBg: '#357ca5',
    headerColor: '#ffffff',
    siderBg: '#222d32',
    logoBg: '#31739b',
    logoColor: '#ffffff',
    menuColor: '#b8c7ce',
    tagsBg: '#ecf0f5',
    bodyBg: '#ecf0f5',
    radius: 0,
  },
};

/** The backgrounds text sits on in a theme: cards and dialogs, the page, the tabs bar. */
function pageBackgrounds(s: ShellTheme): string[] {
  return s.dark ? ['#141414', '#1F1F1F', s.bodyBg] : ['#FFFFFF', s.bodyBg, s.tagsBg];
}

/**
 * antd's dark algorithm draws a seed colour 15 % of the way towards its ground (#141414): a text colour
 * given as a seed is lightened until what is drawn still reads on every ground.
 */
function darkSeed(colour: string, grounds: readonly string[]): string {
  let seed = colour;
  for (let step = 1; step <= 40; step += 1) {
    const drawn = mix(seed, '#141414', 0.15);
    if (grounds.every((g) => contrast(drawn, g) >= 4.5)) break;
    seed = mix(colour, '#FFFFFF', step * 0.025);
  }
  return seed;
}

/** The solid colours of a sidebar: its own, or the stops of its gradient and its logo strip. */
export function siderColours(s: ShellTheme): string[] {
  const stops = s.siderBg.match(/#[0-9a-f]{6}/gi) ?? [];
  return /^#[0-9a-f]{6}$/i.test(s.siderBg) ? [s.siderBg] : [...stops, s.logoBg];
}

/**
 * The selected item's fill on a dark menu: the chosen colour, unless it would vanish into the sidebar
 * (#212121 on #20222a): then its lighter shade that stands 3:1 apart from every colour of the sidebar
 * (WCAG 1.4.11, a state shown by a fill).
 */
export function activeFill(s: ShellTheme, primary: string): string {
  const grounds = siderColours(s);
  if (grounds.every((g) => contrast(primary, g) >= 3)) return primary;
  return readableOn(primary, grounds, 3);
}

/** Placeholder text: a grey that reads at 4.5:1 on the theme's inputs (white; dark grounds in the dark theme). */
export const placeholderOf = (s: ShellTheme): string => (s.dark ? '#8C8C8C' : '#737373');

/** The top menu's selected item: the primary's readable shade on a light header, the header's own text colour on a coloured one. */
function topMenuSelected(s: ShellTheme, primary: string): string {
  const solid = /^#[0-9a-f]{6}$/i.test(s.headerBg) ? s.headerBg : null;
  return solid && contrast(solid, '#000000') > contrast(solid, '#FFFFFF')
    ? readableOn(primary, [solid])
    : s.headerColor;
}

/**
 * antd's theme for a layout theme and a primary colour. The chosen colour is antd's colorPrimary and is
 * drawn as chosen: solid buttons, the selected menu item's fill, borders, tints, focus, the ink bar; what
 * is written on those fills is white or the dark ink, whichever reaches 4.5:1 (`inkOn`). Text written in
 * the primary colour (links, selected tabs and menu items on a light ground) is its readable shade on the
 * theme's backgrounds (`readableOn`).
 * `motion` false (the system asks for reduced motion) turns antd's animations off.
 */
export function antdThemeFor(name: ThemeName, primary: string, motion = true): ThemeConfig {
  const s = SHELL_THEMES[name];
  const ink = inkOn(primary);
  const grounds = pageBackgrounds(s);
  const text = readableOn(primary, grounds);
  const infoBg = mix(primary, '#FFFFFF', 0.9);
  const tint = mix(primary, s.dark ? '#000000' : '#FFFFFF', 0.85);
  const light = s.menu === 'light';
  const selectedBg = s.menuSelectedBg ?? (light ? tint : activeFill(s, primary));
  const selectedColor =
    s.menuSelectedColor ?? (light ? readableOn(primary, [tint, s.siderBg]) : inkOn(selectedBg));
  const topSelected = topMenuSelected(s, primary);
  // filled buttons keep their ink when hovered or pressed: white ink on a darker fill, dark ink on a lighter one
  const shade = ink === '#FFFFFF' ? '#000000' : '#FFFFFF';
  const menuTokens = {
    darkItemBg: 'transparent',
    darkSubMenuItemBg: 'rgba(0,0,0,0.18)',
    darkItemColor: s.menuColor,
    darkItemHoverColor: '#ffffff',
    darkPopupBg: s.logoBg,
    darkItemSelectedBg: selectedBg,
    darkItemSelectedColor: selectedColor,
    itemBg: 'transparent',
    subMenuItemBg: 'transparent',
    itemColor: s.menuColor,
    itemSelectedBg: selectedBg,
    itemSelectedColor: selectedColor,
    // the title of an open sub-menu that holds the current page, on the sidebar's own ground (a dark
    // menu's is set in shell.css: antd writes it in the selected item's ink)
    subMenuItemSelectedColor: readableOn(primary, [s.siderBg.startsWith('#') ? s.siderBg : '#FFFFFF']),
    horizontalItemSelectedColor: topSelected,
    horizontalItemHoverColor: topSelected,
    // a light menu's selected item is a faint tint: a bar in its text colour marks it on the sidebar too
    activeBarWidth: light ? 3 : 0,
  };
  return {
    algorithm: s.dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      motion,
      colorPrimary: primary,
      colorLink: s.dark ? darkSeed(text, grounds) : text,
      borderRadius: s.radius,
      // antd's secondary grey (45 % black) is 3.4:1 on white: darker, to reach 4.5:1; its red as text
      // (#ff4d4f, 3.3:1) takes its readable shade, lightened instead in the dark theme
      // placeholders are read as hints: antd's quaternary grey (#bfbfbf on white, 1.8:1) darkened to 4.5:1
      colorTextPlaceholder: placeholderOf(s),
      ...(s.dark
        ? { colorError: darkSeed('#FF4D4F', grounds) }
        : {
            colorTextDescription: 'rgba(0,0,0,0.62)',
            colorTextTertiary: 'rgba(0,0,0,0.6)',
            colorError: readableOnWhite('#FF4D4F'),
          }),
    },
    components: {
      Layout: { siderBg: 'transparent', headerBg: 'transparent', bodyBg: s.bodyBg, headerPadding: 0 },
      Menu: menuTokens,
      // component tokens are drawn as given (the dark algorithm does not shade them): the fill as chosen
      Button: {
        colorPrimary: primary,
        primaryColor: ink,
        colorLink: text,
        ...(s.dark ? { colorError: readableOn('#FF4D4F', grounds) } : {}),
        colorPrimaryHover: mix(primary, shade, 0.12),
        colorPrimaryActive: mix(primary, shade, 0.24),
        defaultHoverColor: text,
        defaultActiveColor: text,
      },
      // a status tag's text on its tint (antd's green is 2.2:1 there): the status colour's readable shade,
      // the tint kept; elsewhere (icons, diagram strokes) the status colours stay antd's
      ...(s.dark
        ? {}
        : {
            Tag: {
              colorSuccess: readableOn('#52C41A', ['#F6FFED']),
              colorSuccessBg: '#F6FFED',
              colorSuccessBorder: '#B7EB8F',
              colorWarning: readableOn('#FAAD14', ['#FFFBE6']),
              colorWarningBg: '#FFFBE6',
              colorWarningBorder: '#FFE58F',
              colorInfo: readableOn(primary, [infoBg]),
              colorInfoBg: infoBg,
              colorInfoBorder: mix(primary, '#FFFFFF', 0.6),
            },
          }),
      // an empty table's 暂无数据 is written in antd's disabled grey (#bfbfbf, 1.8:1): the placeholder's colour
      Table: { colorTextDisabled: placeholderOf(s) },
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
    '--shell-primary-ink': inkOn(primary),
    '--shell-tag-hover': readableOnWhite(primary),
    '--shell-menu-open-color':
      s.menu === 'light' ? readableOn(primary, [s.siderBg]) : (s.menuOpenColor ?? '#ffffff'),
    // plain text of the page's own elements (antd's components take theirs from antd's tokens)
    '--shell-text': s.dark ? 'rgba(255,255,255,0.85)' : 'rgba(0,0,0,0.88)',
    '--shell-text-secondary': s.dark ? 'rgba(255,255,255,0.65)' : '#606266',
    '--shell-header-bg': s.headerBg,
    '--shell-header-color': s.headerColor,
    '--shell-sider-bg': s.siderBg,
    '--shell-logo-bg': s.logoBg,
    '--shell-logo-color': s.logoColor,
    '--shell-tags-bg': s.tagsBg,
    '--shell-body-bg': s.bodyBg,
  } as CSSProperties;
}
