import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useLayout } from '../../platform/session/layout';
import { type MenuEntry, menuTarget, type NavItem } from '../menu';
import { useShellUi } from './ui';

/**
 * Opens a menu entry: an app page, an external page inside the app, or a new window (spec §2). On small
 * screens the sidebar collapses after the choice.
 */
export function useOpenMenu() {
  const navigate = useNavigate();
  return useCallback(
    (entry: Pick<MenuEntry | NavItem, 'path' | 'name' | 'external' | 'newWindow'>) => {
      const target = menuTarget(entry);
      if (target.newWindow) window.open(target.href, '_blank', 'noopener');
      else void navigate(target.href);
      if (useShellUi.getState().screen === 0) useLayout.getState().setCollapsed(true);
    },
    [navigate],
  );
}
