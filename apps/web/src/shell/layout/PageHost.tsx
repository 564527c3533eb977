/**
 * The layout's catch-all route: looks the current path up in the user's menu (or the static routes) and
 * in the page registry. A menu page without a registered screen shows the 404 result inside the layout.
 */
import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { type PageLoader, registry } from '../../features/registry';
import { matchPattern, normalizePath, resolveRoute } from '../guard';
import { withTimeout } from '../lazy';
import { ErrorResult } from '../pages/ErrorResult';
import { useNavMenu } from './useNavMenu';

const pages = new Map<string, LazyExoticComponent<ComponentType>>();

function findLoader(path: string): [string, PageLoader] | null {
  if (registry[path]) return [path, registry[path]];
  for (const [pattern, loader] of Object.entries(registry)) {
    if (pattern.includes(':') && matchPattern(pattern, path)) return [pattern, loader];
  }
  return null;
}

function pageFor(path: string): LazyExoticComponent<ComponentType> | null {
  const found = findLoader(path);
  if (!found) return null;
  const [key, loader] = found;
  let page = pages.get(key);
  if (!page) {
    page = lazy(withTimeout(loader));
    pages.set(key, page);
  }
  return page;
}

function Loading() {
  const { t } = useTranslation();
  return (
    <div aria-busy="true" style={{ padding: 24, color: '#909399' }}>
      {t('app.loading')}
    </div>
  );
}

export default function PageHost() {
  const { pathname } = useLocation();
  const { entries } = useNavMenu();
  const path = normalizePath(pathname);
  const known = resolveRoute(path, { token: '', cookieToken: '', locked: false, menu: entries });
  const Page = known && !known.redirect ? pageFor(path) : null;
  if (!Page) return <ErrorResult status="404" />;
  return (
    <Suspense fallback={<Loading />}>
      <Page key={path} />
    </Suspense>
  );
}
