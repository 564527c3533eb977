import { DEFAULT_COLOR, DEFAULT_THEME } from '@smart/contracts/core';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { jsonStorage } from '../storage';

/** The eleven layout themes of spec §2 (the class names of the BladeX family's theme-* styles). */
export const THEMES = [
  'theme-default',
  'theme-white',
  'theme-dark',
  'theme-star',
  'theme-smart',
  'theme-iview',
  'theme-vip',
  'theme-cool',
  'theme-d2',
  'theme-hey',
  'theme-lte',
] as const;
export type ThemeName = (typeof THEMES)[number];

export function isThemeName(value: unknown): value is ThemeName {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

/** The layout theme, remembered (spec §3: theme, default theme-default). */
export const useTheme = create<{ theme: ThemeName }>()(
  persist(() => ({ theme: DEFAULT_THEME as ThemeName }), {
    name: 'saber-theme',
    storage: jsonStorage('local'),
    merge: (persisted, current) => {
      const theme = (persisted as { theme?: unknown } | undefined)?.theme;
      return { ...current, theme: isThemeName(theme) ? theme : current.theme };
    },
  }),
);

export function setTheme(theme: ThemeName): void {
  if (isThemeName(theme)) useTheme.setState({ theme });
}

const HEX = /^#[0-9a-f]{6}$/i;

/** The primary colour, remembered (spec §3: colour, default #409EFF). */
export const useColor = create<{ color: string }>()(
  persist(() => ({ color: DEFAULT_COLOR }), {
    name: 'saber-color',
    storage: jsonStorage('local'),
    merge: (persisted, current) => {
      const color = (persisted as { color?: unknown } | undefined)?.color;
      return { ...current, color: typeof color === 'string' && HEX.test(color) ? color : current.color };
    },
  }),
);

export function setColor(color: string): void {
  if (HEX.test(color)) useColor.setState({ color: color.toUpperCase() });
}
