/**
 * Page registry: path → lazy page. The layout's catch-all route (shell/layout/PageHost.tsx) looks the
 * current path up in the user's menu and here; a menu path missing here shows the 404 result.
 * Add a screen = add its line here (one chunk per page) and its menu node on the server.
 */
import type { ComponentType } from 'react';
import { resourcePageLoaders } from '../platform/crud/resource-pages';

export type PageModule = { default: ComponentType };
export type PageLoader = () => Promise<PageModule>;

export const registry: Record<string, PageLoader> = {
  // every resource definition of @smart/contracts: the generic list page at its route + /index
  ...resourcePageLoaders(),
  '/wel/index': () => import('./wel/WelcomePage'),
  '/info/index': () => import('./info/InfoPage'),
};
