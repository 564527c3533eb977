/**
 * The signed-in shell: sidebar (server menu), top bar, tabs bar and the page area. A lazy chunk of its
 * own, so none of it loads with /login.
 */
import { TOKEN_CHECK_INTERVAL_MS } from '@smart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Layout as AntLayout, App, ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Outlet, useRouteLoaderData } from 'react-router';
import { setErrorToast } from '../../platform/http/toast';
import { useLanguage } from '../../platform/i18n';
import { ensureSessionData, refreshIfDue, useSession } from '../../platform/session/session';
import type { RootData } from '../Root';
import { Sidebar } from './Sidebar';
import { TagsBar } from './TagsBar';
import { TopBar } from './TopBar';

const PasswordChangeDialog = lazy(() => import('./PasswordChangeDialog'));

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

export const THEME = { token: { colorPrimary: '#409EFF' } };

/** Registers antd's message as the http client's error toast while the shell is mounted. */
function ShellEffects() {
  const { message } = App.useApp();
  const language = useLanguage((s) => s.language);
  const firstLanguage = useRef(language);

  useEffect(() => setErrorToast((text) => void message.error(text)), [message]);

  // Spec §4: the token's age is checked every 10 s; one refresh at a time.
  useEffect(() => {
    const timer = setInterval(() => {
      refreshIfDue()?.catch(() => {});
    }, TOKEN_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);

  // Menu names come from the server in the request's language: reload them when the language changes.
  useEffect(() => {
    if (language !== firstLanguage.current) {
      firstLanguage.current = language;
      void ensureSessionData(true);
    }
  }, [language]);

  return null;
}

export default function Layout() {
  const language = useLanguage((s) => s.language);
  const mustChangePassword = useSession((s) => s.passwordChangeRequired);
  const root = useRouteLoaderData('root') as RootData | undefined;
  const showMenu = root?.menu !== false;

  return (
    <ConfigProvider locale={language === 'en' ? enUS : zhCN} theme={THEME}>
      <App style={{ height: '100%' }}>
        <QueryClientProvider client={queryClient}>
          <ShellEffects />
          <AntLayout style={{ minHeight: '100vh' }}>
            {showMenu && <Sidebar />}
            <AntLayout>
              <TopBar />
              <TagsBar />
              <AntLayout.Content style={{ margin: 16, minWidth: 0 }}>
                <Outlet />
              </AntLayout.Content>
            </AntLayout>
          </AntLayout>
          {mustChangePassword && (
            <Suspense fallback={null}>
              <PasswordChangeDialog />
            </Suspense>
          )}
        </QueryClientProvider>
      </App>
    </ConfigProvider>
  );
}
