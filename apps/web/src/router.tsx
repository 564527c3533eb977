/**
 * Routes (spec §2) in react-router's data mode. Every page is a lazy chunk; the root loader runs the
 * navigation guard (shell/guard.ts) on every navigation.
 */

import type { MenuNode } from '@smart/contracts/core';
import { createBrowserRouter, type LoaderFunctionArgs, redirect } from 'react-router';
import { useLock } from './platform/session/lock';
import { cookieToken, ensureSessionData, localLogout, useSession } from './platform/session/session';
import { loadSettings } from './platform/session/settings';
import { useTags } from './platform/session/tags';
import { countVisit } from './platform/session/visits';
import { decideNavigation, type GuardState } from './shell/guard';
import { loadLayout, loadLogin, loadPageHost, withTimeout } from './shell/lazy';
import { flattenMenu, type MenuEntry, normalizeMenu } from './shell/menu';
import { HydrateFallback, Root, type RootData, RootError } from './shell/Root';

let menuSource: MenuNode[] | null = null;
let menuEntries: MenuEntry[] = [];

function guardState(): GuardState {
  const session = useSession.getState();
  if (session.menu !== menuSource) {
    menuSource = session.menu;
    menuEntries = flattenMenu(normalizeMenu(session.menu));
  }
  return {
    token: session.token,
    cookieToken: cookieToken(),
    locked: useLock.getState().isLock,
    menu: menuEntries,
  };
}

/** Where a cancelled navigation (a query target opened in a new window) stays. */
let lastPath = '';
let loaderDepth = 0;

/** True while the guard runs: the 401 handler then leaves the redirect to the guard. */
export function isGuardRunning(): boolean {
  return loaderDepth > 0;
}

async function rootLoader({ request }: LoaderFunctionArgs): Promise<RootData> {
  loaderDepth += 1;
  try {
    const url = new URL(request.url);
    await loadSettings();
    if (useSession.getState().token && cookieToken()) await ensureSessionData();
    const decision = decideNavigation(guardState(), { pathname: url.pathname, search: url.search });
    switch (decision.kind) {
      case 'redirect':
        if (decision.logout) localLogout();
        throw redirect(decision.to);
      case 'open':
        window.open(decision.url, '_blank', 'noopener');
        throw redirect(lastPath || '/');
      default:
        if (decision.tab) {
          useTags.getState().add(decision.tab);
          const { userInfo, tenantId } = useSession.getState();
          countVisit(userInfo?.tenantId || tenantId, userInfo?.id ?? '', decision.tab.value);
        }
        lastPath = url.pathname + url.search;
        return { title: decision.title, menu: decision.menu };
    }
  } finally {
    loaderDepth -= 1;
  }
}

const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await withTimeout(load)()).default,
});

export function createRouter() {
  return createBrowserRouter([
    {
      id: 'root',
      path: '/',
      loader: rootLoader,
      shouldRevalidate: () => true,
      Component: Root,
      HydrateFallback,
      ErrorBoundary: RootError,
      children: [
        { path: 'login', lazy: async () => ({ Component: (await loadLogin()).default }) },
        { path: 'lock', lazy: page(() => import('./shell/pages/LockPage')) },
        { path: '404', lazy: page(() => import('./shell/pages/NotFoundPage')) },
        { path: '403', lazy: page(() => import('./shell/pages/ForbiddenPage')) },
        { path: '500', lazy: page(() => import('./shell/pages/ServerErrorPage')) },
        {
          id: 'layout',
          lazy: async () => ({ Component: (await loadLayout()).default }),
          children: [
            {
              path: '*',
              lazy: page(loadPageHost),
              // a page that throws shows the error inside the shell, not instead of it
              ErrorBoundary: RootError,
            },
          ],
        },
      ],
    },
  ]);
}

export type AppRouter = ReturnType<typeof createRouter>;
