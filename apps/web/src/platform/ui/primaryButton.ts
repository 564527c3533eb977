import type { CSSProperties } from 'react';
import { useColor } from '../session/appearance';
import { inkOn } from './colour';

/**
 * The public pages (/login, /lock) stay without antd's ConfigProvider (the login budget): their one primary
 * button is filled with the chosen colour, its text white or dark ink, whichever reaches WCAG AA on it.
 */
export function usePrimaryButtonStyle(): CSSProperties {
  const color = useColor((s) => s.color);
  return { background: color, borderColor: color, color: inkOn(color) };
}
