import type { ThemeConfig } from 'antd';
import { describe, expect, it } from 'vitest';
import { THEMES } from '../../platform/session/appearance';
import { contrast } from '../../platform/ui/colour';
import { PRESET_COLORS } from './TopBar';
import { antdThemeFor, SHELL_THEMES, shellCssVars, siderColours } from './themes';

const solid = (c: string) => /^#[0-9a-f]{6}$/i.test(c);
const tokensOf = (theme: ThemeConfig, part: 'Menu' | 'Button') =>
  (theme.components?.[part] ?? {}) as Record<string, string>;

describe('the layout themes with every preset colour', () => {
  for (const name of THEMES) {
    for (const primary of PRESET_COLORS) {
      it(`${name} ${primary}: the chosen colour is drawn as chosen and every text on it reaches 4.5:1`, () => {
        const s = SHELL_THEMES[name];
        const theme = antdThemeFor(name, primary);
        const vars = shellCssVars(name, primary) as Record<string, string>;
        const menu = tokensOf(theme, 'Menu');
        const button = tokensOf(theme, 'Button');
        // fills in the chosen colour, ink on them
        expect(theme.token?.colorPrimary).toBe(primary);
        expect(button.colorPrimary).toBe(primary);
        expect(vars['--shell-primary']).toBe(primary);
        expect(contrast(button.primaryColor, primary)).toBeGreaterThanOrEqual(4.5);
        expect(contrast(vars['--shell-primary-ink'], primary)).toBeGreaterThanOrEqual(4.5);
        // the selected menu item, on its fill
        const selectedBg = s.menu === 'dark' ? menu.darkItemSelectedBg : menu.itemSelectedBg;
        const selected = s.menu === 'dark' ? menu.darkItemSelectedColor : menu.itemSelectedColor;
        expect(contrast(selected, selectedBg)).toBeGreaterThanOrEqual(4.5);
        // …and the selected item stands out on the sidebar (WCAG 1.4.11, 3:1): a dark menu by its fill,
        // a light one (a faint tint) by the bar drawn in its text colour
        for (const ground of siderColours(s)) {
          if (s.menu === 'dark') expect(contrast(selectedBg, ground), ground).toBeGreaterThanOrEqual(3);
          else expect(contrast(selected, ground), ground).toBeGreaterThanOrEqual(3);
        }
        if (s.menu === 'light') expect(Number(menu.activeBarWidth)).toBeGreaterThan(0);
        // placeholders read at 4.5:1 on the inputs (white, or the dark theme's grounds)
        const placeholder = theme.token?.colorTextPlaceholder as string;
        const emptyTable =
          (theme.components?.Table as Record<string, string> | undefined)?.colorTextDisabled ?? '';
        for (const ground of s.dark ? ['#141414', '#1F1F1F'] : ['#FFFFFF']) {
          expect(contrast(placeholder, ground), `placeholder on ${ground}`).toBeGreaterThanOrEqual(4.5);
          expect(contrast(emptyTable, ground), `暂无数据 on ${ground}`).toBeGreaterThanOrEqual(4.5);
        }
        // an open sub-menu's title on the sidebar (a gradient sidebar is checked against its logo strip)
        const sider = solid(s.siderBg) ? s.siderBg : s.logoBg;
        const open = s.menu === 'dark' ? vars['--shell-menu-open-color'] : menu.subMenuItemSelectedColor;
        if (solid(open)) expect(contrast(open, sider)).toBeGreaterThanOrEqual(4.5);
        // the top menu's selected item on a plain header
        if (solid(s.headerBg) && solid(menu.horizontalItemSelectedColor))
          expect(contrast(menu.horizontalItemSelectedColor, s.headerBg)).toBeGreaterThanOrEqual(4.5);
        // text in the primary colour on the page's grounds (antd shades the dark theme's seeds itself)
        if (!s.dark) {
          for (const ground of ['#FFFFFF', s.bodyBg, s.tagsBg])
            expect(contrast(theme.token?.colorLink as string, ground), ground).toBeGreaterThanOrEqual(4.5);
        }
        expect(contrast(vars['--shell-tag-hover'], '#FFFFFF')).toBeGreaterThanOrEqual(4.5);
      });
    }
  }

  it('keeps a colour as chosen, not its darker shade (#409EFF, not #3077BF)', () => {
    const theme = antdThemeFor('theme-default', '#409EFF');
    expect(tokensOf(theme, 'Menu').darkItemSelectedBg).toBe('#409EFF');
    expect(shellCssVars('theme-default', '#409EFF')).toMatchObject({ '--shell-primary-ink': '#1F1F1F' });
  });
});
