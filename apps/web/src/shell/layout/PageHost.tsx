/**
 * The layout's catch-all route: finds the page of the current path (shell pages, then the feature
 * registry, then the definition-driven page families) and keeps pages alive across tabs (spec §2). A page
 * whose menu node says keepAlive stays mounted while its tab is open, hidden by React's <Activity> when
 * another tab is active, so its form input, table page, filters and scroll position are there when its tab
 * comes back. Closing its tab or clearing the cache drops it. Each page sees its own location and params,
 * frozen while it is hidden.
 */
import {
  Activity,
  Component,
  type ComponentType,
  type ErrorInfo,
  type LazyExoticComponent,
  lazy,
  memo,
  type ReactNode,
  Suspense,
  useContext,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import {
  type Location,
  UNSAFE_LocationContext as LocationContext,
  type NavigationType,
  UNSAFE_RouteContext as RouteContext,
  useLocation,
  useNavigationType,
} from 'react-router';
import { families, type PageLoader, registry } from '../../features/registry';
import { familyPage, inFamily } from '../../platform/crud/resource-pages';
import { logClientError } from '../../platform/session/errorLog';
import { useTags } from '../../platform/session/tags';
import { matchPattern, normalizePath, resolveRoute } from '../guard';
import { withTimeout } from '../lazy';
import { shellPages } from '../pages';
import { ContentScrollContext, useShellUi } from './ui';
import { tabValue, useNavMenu } from './useNavMenu';

type RouteContextValue = React.ContextType<typeof RouteContext>;

const pages = new Map<string, LazyExoticComponent<ComponentType>>();

function findLoader(
  path: string,
): { key: string; loader: PageLoader; params: Record<string, string> } | null {
  for (const table of [shellPages, registry]) {
    if (table[path]) return { key: path, loader: table[path], params: {} };
  }
  for (const table of [shellPages, registry]) {
    for (const [pattern, loader] of Object.entries(table)) {
      if (!pattern.includes(':')) continue;
      const params = matchPattern(pattern, path);
      if (params) return { key: pattern, loader, params };
    }
  }
  // an area's screen that is no definition's list, else a definition's screen: its family's definitions
  // load first, then its page (or 404 when none has the path)
  const family = families.find((f) => inFamily(f, path));
  const screen = family?.screens?.[path];
  if (screen) return { key: path, loader: screen, params: {} };
  if (family)
    return {
      key: path,
      loader: () => familyPage(family, path).then((page) => page ?? { default: () => <MissingPage /> }),
      params: {},
    };
  return null;
}

/**
 * The 404 inside the layout. Its own chunk: antd's Result carries its pictures (≈ 8 KB), which the home page
 * would otherwise load without ever showing them.
 */
const MissingPage = lazy(() =>
  import('../pages/ErrorResult').then(({ ErrorResult }) => ({
    default: () => <ErrorResult status="404" headingLevel={2} />,
  })),
);

function lazyPage(key: string, loader: PageLoader): LazyExoticComponent<ComponentType> {
  let page = pages.get(key);
  if (!page) {
    page = lazy(withTimeout(loader));
    pages.set(key, page);
  }
  return page;
}

/** One open page: where it is, and the route context it was opened in. */
interface Frame {
  value: string;
  location: Location;
  navigationType: NavigationType;
  route: RouteContextValue;
}

function Loading() {
  const { t } = useTranslation();
  return (
    <div aria-busy="true" style={{ padding: 24, color: 'var(--shell-text-secondary)' }}>
      {t('common.loading')}
    </div>
  );
}

/** A page chunk that failed (or took longer than 120 s): an error page with a retry button. */
class PageErrorBoundary extends Component<
  { onRetry: () => void; children: ReactNode },
  { error: Error | null }
> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    logClientError('error', error, (info.componentStack ?? '').trim().split('\n')[0] ?? '');
  }

  retry = () => {
    this.props.onRetry();
    this.setState({ error: null });
  };

  render() {
    if (this.state.error) return <PageLoadError onRetry={this.retry} />;
    return this.props.children;
  }
}

function PageLoadError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" style={{ padding: 48, textAlign: 'center' }}>
      <h2 style={{ fontSize: 20 }}>{t('error.pageLoad')}</h2>
      <p style={{ color: 'var(--shell-text-secondary)' }}>{t('error.pageLoadDetail')}</p>
      <button type="button" onClick={onRetry} style={{ padding: '6px 16px', cursor: 'pointer' }}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** One page with its own location and params; memoised so a hidden page does not re-render. */
const PageFrame = memo(function PageFrame({ frame }: { frame: Frame }) {
  const { entries } = useNavMenu();
  const [attempt, setAttempt] = useState(0);
  const path = normalizePath(frame.location.pathname);
  const known = resolveRoute(path, { token: '', cookieToken: '', locked: false, menu: entries });
  const found = known && !known.redirect ? findLoader(path) : null;
  const params = found?.params;

  const locationValue = useMemo(
    () => ({ location: frame.location, navigationType: frame.navigationType }),
    [frame.location, frame.navigationType],
  );
  const routeValue = useMemo((): RouteContextValue => {
    const matches = frame.route.matches.map((m, i, all) =>
      i === all.length - 1
        ? { ...m, params: { ...m.params, ...params }, pathname: frame.location.pathname }
        : m,
    );
    return { ...frame.route, outlet: null, matches };
  }, [frame.route, frame.location.pathname, params]);

  if (!found)
    return (
      <Suspense fallback={<Loading />}>
        <MissingPage />
      </Suspense>
    );
  const Page = lazyPage(found.key, found.loader);
  return (
    <LocationContext.Provider value={locationValue}>
      <RouteContext.Provider value={routeValue}>
        <PageErrorBoundary
          key={attempt}
          onRetry={() => {
            pages.delete(found.key); // load the chunk again
            setAttempt((n) => n + 1);
          }}
        >
          <Suspense fallback={<Loading />}>
            <Page />
          </Suspense>
        </PageErrorBoundary>
      </RouteContext.Provider>
    </LocationContext.Provider>
  );
});

function sameUrl(a: Location, b: Location): boolean {
  return a.pathname === b.pathname && a.search === b.search && a.hash === b.hash && a.state === b.state;
}

function sameFrames(a: Frame[], b: Frame[]): boolean {
  return a.length === b.length && a.every((f, i) => f === b[i]);
}

export default function PageHost() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const route = useContext(RouteContext);
  const tags = useTags((s) => s.tags);
  const epoch = useShellUi((s) => s.cacheEpoch);
  const scroller = useContext(ContentScrollContext);
  const value = tabValue(normalizePath(location.pathname), location.search);
  const tag = tags.find((t) => t.value === value);
  const keepAlive = Boolean(tag?.meta.keepAlive);

  // The kept pages: those whose tab is still open and keeps alive, plus the current one if it keeps alive.
  const [kept, setKept] = useState<{ epoch: number; frames: Frame[] }>({ epoch, frames: [] });
  const open = new Set(tags.filter((t) => t.meta.keepAlive).map((t) => t.value));
  let frames = kept.epoch === epoch ? kept.frames.filter((f) => open.has(f.value)) : [];
  const index = frames.findIndex((f) => f.value === value);
  // a page keeps its frame (and is not rendered again) while its URL stays the same
  if (keepAlive && (index === -1 || !sameUrl(frames[index].location, location))) {
    const frame: Frame = { value, location, navigationType, route };
    frames = index === -1 ? [...frames, frame] : frames.with(index, frame);
  }
  if (kept.epoch !== epoch || !sameFrames(frames, kept.frames)) setKept({ epoch, frames });

  // The current page when it does not keep alive: a fresh frame for every visit. Not for a new route
  // context alone: the router makes one for each of its states (a navigation's loading state too), and a
  // new frame renders the whole page again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the route as it was when the location changed
  const plain = useMemo(
    (): Frame | null => (keepAlive ? null : { value, location, navigationType, route }),
    [keepAlive, value, location, navigationType],
  );

  // Scroll position per kept page: remembered while scrolling, restored when its tab comes back.
  const positions = useRef(new Map<string, number>());
  const active = useRef(value);
  useLayoutEffect(() => {
    active.current = value;
    if (scroller) scroller.scrollTop = keepAlive ? (positions.current.get(value) ?? 0) : 0;
  }, [value, keepAlive, scroller]);
  useLayoutEffect(() => {
    if (!scroller) return;
    const onScroll = () => positions.current.set(active.current, scroller.scrollTop);
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => scroller.removeEventListener('scroll', onScroll);
  }, [scroller]);
  useLayoutEffect(() => {
    for (const key of positions.current.keys()) {
      if (key !== value && !frames.some((f) => f.value === key)) positions.current.delete(key);
    }
  });

  return (
    <>
      {frames.map((frame) => (
        <Activity key={`${epoch}:${frame.value}`} mode={frame.value === value ? 'visible' : 'hidden'}>
          <PageFrame frame={frame} />
        </Activity>
      ))}
      {plain && <PageFrame key={`${epoch}:${plain.value}`} frame={plain} />}
    </>
  );
}
