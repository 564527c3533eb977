import type { CSSProperties } from 'react';
import { useColor } from '../session/appearance';
import { readableOnWhite } from './colour';

/**
 * The public pages (/login, /lock) stay without antd's ConfigProvider (the login budget): their one primary
 * button takes the readable shade of the chosen colour (white text on it reaches WCAG AA).
 */
export function usePrimaryButtonStyle(): CSSProperties {
  const readable = readableOnWhite(useColor((s) => s.color));
  return { background: readable, borderColor: readable };
}
