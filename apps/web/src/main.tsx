import { readDeploymentZoneFrom } from '@smart/contracts/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { configureHttp } from './platform/http/client';
import { currentLanguage, htmlLang, initI18n, t } from './platform/i18n';
import { installErrorCollector } from './platform/session/errorLog';
import { localLogout, pendingRefresh, useSession } from './platform/session/session';
import { deploymentZone, loadSettings } from './platform/session/settings';
import { WEBSITE } from './platform/session/website';
import { createRouter, isGuardRunning } from './router';

// Uncaught errors and rejected promises go to the local error log (spec §8), from the very start.
installErrorCollector(window);
const strings = initI18n();
// The login page needs the server's modes: ask for them before anything else.
void loadSettings();
// "today" in the rules both ends run (a day to come refused) is the deployment's day, not the browser's
readDeploymentZoneFrom(deploymentZone);

const router = createRouter();

configureHttp({
  getToken: () => useSession.getState().token,
  getLanguage: () => htmlLang(currentLanguage()),
  translate: t,
  silentCodes: WEBSITE.statusWhiteList,
  pendingRefresh,
  onUnauthorized: () => {
    const wasSignedIn = Boolean(useSession.getState().token);
    localLogout();
    // During a navigation the guard sees the cleared session and redirects by itself.
    if (wasSignedIn && !isGuardRunning() && window.location.pathname !== '/login') {
      void router.navigate('/login', { replace: true });
    }
  },
});

// drawn once the remembered language's strings are there (at once for Chinese, the default)
void strings.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      {/* no transitions: a navigation is drawn in one render rather than time-sliced behind the old page
          (a kept-alive tab comes back within a frame or two); a page still loading shows its own placeholder */}
      <RouterProvider router={router} useTransitions={false} />
    </StrictMode>,
  ),
);
