import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLoaderData } from 'react-router';
import type { TextKey } from '../platform/i18n';
import { useSession } from '../platform/session/session';
import type { Title } from './guard';
import { flattenMenu, type MenuEntry, normalizeMenu } from './menu';

export interface RootData {
  title: Title;
  menu: boolean;
}

/**
 * Document title from the current tab's label (translated; a menu page by its menu name in the current
 * language), e.g. '首页 - 智慧管理系统'.
 */
export function documentTitle(
  title: Title | undefined,
  translate: (key: TextKey) => string,
  menu: readonly MenuEntry[] = [],
): string {
  const app = translate('app.title');
  if (!title) return app;
  const fromMenu = title.path ? menu.find((e) => e.path === title.path)?.name : undefined;
  const label = title.i18n ? translate(title.i18n) : (fromMenu ?? title.label);
  return label ? `${label} - ${app}` : app;
}

export function Root() {
  const data = useLoaderData() as RootData | undefined;
  const { t, i18n } = useTranslation();
  const menu = useSession((s) => s.menu);
  const entries = useMemo(() => flattenMenu(normalizeMenu(menu)), [menu]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the title follows the language too
  useEffect(() => {
    document.title = documentTitle(data?.title, t, entries);
  }, [data?.title, t, i18n.language, entries]);
  return <Outlet />;
}

export function HydrateFallback() {
  const { t } = useTranslation();
  return (
    <div className="boot" aria-busy="true">
      {t('common.loading')}
    </div>
  );
}

/** Last resort for a route that failed to load (e.g. a chunk after a deploy). No antd here. */
export function RootError() {
  const { t } = useTranslation();
  return (
    <div role="alert" style={{ padding: 48, textAlign: 'center' }}>
      <h1 style={{ fontSize: 20 }}>{t('error.pageLoad')}</h1>
      <p style={{ color: '#666' }}>{t('error.pageLoadDetail')}</p>
      <button type="button" onClick={() => window.location.reload()} style={{ padding: '6px 16px' }}>
        {t('error.reload')}
      </button>
    </div>
  );
}
