/**
 * The signed-in shell: sidebar (server menu), top bar, tabs bar and the page area, under antd's theme
 * (layout theme + primary colour). A lazy chunk of its own, so none of it loads with /login.
 */
import './i18n';
import { TOKEN_CHECK_INTERVAL_MS } from '@smart/contracts/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Layout as AntLayout, App, ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Outlet, useNavigate, useRouteLoaderData } from 'react-router';
import { setErrorToast } from '../../platform/http/toast';
import { useLanguage } from '../../platform/i18n';
import { useColor, useTheme } from '../../platform/session/appearance';
import {
  adoptStoredTokens,
  ensureSessionData,
  isGuestUser,
  localLogout,
  REFRESH_KEY,
  refreshIfDue,
  useSession,
} from '../../platform/session/session';
import { usePrefersReducedMotion } from '../../platform/ui/reducedMotion';
import { STEADY_LOADING_ICON } from '../../platform/ui/steadyLoading';
import type { RootData } from '../Root';
import './shell.css';
import { Sidebar } from './Sidebar';
import { PAGE_AREA_ID, TagsBar } from './TagsBar';
import { TopBar } from './TopBar';
import { antdThemeFor, shellCssVars } from './themes';
import { ContentScrollContext, screenOf, useShellUi } from './ui';

const PasswordChangeDialog = lazy(() => import('./PasswordChangeDialog'));
const GuestRegisterDialog = lazy(() => import('./GuestRegisterDialog'));
/** The top bar's and tabs bar's dialogs: each its own chunk, loaded when first opened. */
const DIALOGS = {
  lock: lazy(() => import('./dialogs/LockDialog')),
  theme: lazy(() => import('./dialogs/ThemeDialog')),
  log: lazy(() => import('./dialogs/ErrorLogDialog')),
  switch: lazy(() => import('./dialogs/SwitchDialog')),
  search: lazy(() => import('./dialogs/MenuSearchPanel')),
};

/**
 * antd's button settings, made once: a new object on each render of the layout (which the router renders
 * for each of its states) would be a new config, and every antd component on screen would render again.
 */
const BUTTON_CONFIG = { loadingIcon: STEADY_LOADING_ICON };

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

/** Toasts, the token clock, menus in the new language, the screen size class. */
function ShellEffects() {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const language = useLanguage((s) => s.language);
  const firstLanguage = useRef(language);

  useEffect(() => setErrorToast((text) => void message.error(text)), [message]);

  // Spec §4: the token's age is checked every 10 s; one refresh at a time; a failed refresh logs out.
  useEffect(() => {
    const timer = setInterval(() => {
      refreshIfDue()?.catch(() => {
        localLogout();
        void navigate('/login', { replace: true });
      });
    }, TOKEN_CHECK_INTERVAL_MS);
    // another browser tab refreshed: use its tokens (the old refresh token is spent)
    const onStorage = (event: StorageEvent) => {
      if (event.key === REFRESH_KEY) adoptStoredTokens();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      clearInterval(timer);
      window.removeEventListener('storage', onStorage);
    };
  }, [navigate]);

  // Menu names come from the server in the request's language: reload them when the language changes.
  useEffect(() => {
    if (language !== firstLanguage.current) {
      firstLanguage.current = language;
      void ensureSessionData(true);
    }
  }, [language]);

  useEffect(() => {
    const onResize = () => {
      const screen = screenOf(window.innerWidth);
      if (useShellUi.getState().screen !== screen) useShellUi.setState({ screen });
    };
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  return null;
}

/**
 * The router renders the layout at each of its states (a navigation's loading state too): the bars are
 * memoised and the page host keeps its frames, so such a render costs only the layout itself.
 */
export default function Layout() {
  const language = useLanguage((s) => s.language);
  const themeName = useTheme((s) => s.theme);
  const color = useColor((s) => s.color);
  const screen = useShellUi((s) => s.screen);
  const dialog = useShellUi((s) => s.dialog);
  const mustChangePassword = useSession((s) => s.passwordChangeRequired);
  const guest = useSession((s) => isGuestUser(s.userInfo));
  const gated = mustChangePassword && !guest;
  const root = useRouteLoaderData('root') as RootData | undefined;
  const showMenu = root?.menu !== false && !guest;
  const reducedMotion = usePrefersReducedMotion();
  const theme = useMemo(
    () => antdThemeFor(themeName, color, !reducedMotion),
    [themeName, color, reducedMotion],
  );
  const [content, setContent] = useState<HTMLElement | null>(null);
  const Dialog = dialog ? DIALOGS[dialog] : null;

  return (
    <ConfigProvider locale={language === 'en' ? enUS : zhCN} theme={theme} button={BUTTON_CONFIG}>
      <App style={{ height: '100%' }}>
        <QueryClientProvider client={queryClient}>
          <ShellEffects />
          <div
            className={`shell ${themeName}`}
            data-theme={themeName}
            data-screen={screen}
            style={shellCssVars(themeName, color)}
          >
            {/* until an initial password is changed the server serves nothing else: no shell to call it */}
            {!gated && (
              <AntLayout className="shell-root">
                {showMenu && <Sidebar />}
                <AntLayout className="shell-main">
                  <TopBar />
                  <TagsBar />
                  <AntLayout.Content ref={setContent} id={PAGE_AREA_ID} className="shell-content">
                    <ContentScrollContext.Provider value={content}>
                      <Outlet />
                    </ContentScrollContext.Provider>
                  </AntLayout.Content>
                </AntLayout>
              </AntLayout>
            )}
          </div>
          {Dialog && (
            <Suspense fallback={null}>
              <Dialog />
            </Suspense>
          )}
          {gated && (
            <Suspense fallback={null}>
              <PasswordChangeDialog />
            </Suspense>
          )}
          {guest && (
            <Suspense fallback={null}>
              <GuestRegisterDialog />
            </Suspense>
          )}
        </QueryClientProvider>
      </App>
    </ConfigProvider>
  );
}
