/**
 * /wel/index — the home workplace: the greeting, then what the server's one answer (GET
 * /api/dfem-desk/home) holds for this user — what changed since the previous sign-in, the areas' figures,
 * the to-dos and claimable tasks (oldest first, with how long they have waited), the running applications
 * and the latest notices — and the screens this user opens most (counted in this browser). The server
 * leaves out every part the user holds no menu code for; a link is drawn only to a screen of the menu.
 */
import '../../shell/layout/i18n';
import { deploymentZone, hourOf } from '../../platform/time';
import './i18n';
import type { HomeTask, HomeWorkplace } from '@smart/contracts/core';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Typography } from 'antd';
import { type CSSProperties, type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { getData } from '../../platform/http/client';
import { type TextKey, useLanguage } from '../../platform/i18n';
import { isGuestUser, useSession } from '../../platform/session/session';
import { readVisits } from '../../platform/session/visits';
import { MenuIcon } from '../../shell/layout/icons';
import { useNavMenu } from '../../shell/layout/useNavMenu';
import { flattenMenu } from '../../shell/menu';
import { processPaths } from '../work/routes';

export const HOME_API = '/api/dfem-desk/home';
/** The home's one answer in a language: asked for by the page, and by the sign-in as soon as it succeeds. */
export const homeQuery = (language: string) => ({
  queryKey: ['home', language],
  queryFn: () => getData<HomeWorkplace>(HOME_API),
});
const SHORTCUTS = 8;

function greetingKey(hour: number): TextKey {
  if (hour < 12) return 'wel.morning';
  if (hour < 18) return 'wel.afternoon';
  return 'wel.evening';
}

/** a screen's menu page (`/desk/notice` → `/desk/notice/index`) */
const pageOf = (route: string) => (route.endsWith('/index') ? route : `${route}/index`);

export default function WelcomePage() {
  const { t } = useTranslation();
  const language = useLanguage((s) => s.language);
  const user = useSession((s) => s.userInfo);
  const tenantId = useSession((s) => s.tenantId);
  const { items } = useNavMenu();
  const home = useQuery({
    ...homeQuery(language),
    // read again on every visit, unless the sign-in has just asked for it
    refetchOnMount: (q) => Date.now() - q.state.dataUpdatedAt > 5_000,
    // an unregistered third-party user has no account yet: only the registration dialog shows
    enabled: !isGuestUser(user),
  });
  const now = new Date();
  const name = user?.realName || user?.name || user?.account || '';
  // the deployment's day and hour, whatever the browser's zone
  const today = new Intl.DateTimeFormat(language === 'en' ? 'en-US' : 'zh-CN', {
    dateStyle: 'full',
    timeZone: deploymentZone(),
  }).format(now);
  // the menu's pages by path: a link is drawn only to a screen the user may open
  const pages = useMemo(() => new Map(flattenMenu(items).map((e) => [e.path, e])), [items]);
  const menuPage = (route: string) => pages.get(pageOf(route));
  const visits = readVisits(user?.tenantId || tenantId, user?.id ?? '');
  const shortcuts = Object.entries(visits)
    .map(([path, n]) => ({ entry: pages.get(path), n }))
    .filter((v) => v.entry && !v.entry.external)
    .sort((a, b) => b.n - a.n)
    .slice(0, SHORTCUTS);
  const data = home.data;

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <section
        aria-labelledby="wel-greeting"
        style={{ background: '#fff', borderRadius: 8, padding: '20px 24px' }}
      >
        <Typography.Title level={1} id="wel-greeting" style={{ fontSize: 22, margin: 0 }}>
          {t(greetingKey(hourOf(now.getTime())), { name })}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ margin: '4px 0 12px' }}>
          {t('wel.welcome')}
        </Typography.Paragraph>
        <dl style={{ display: 'flex', flexWrap: 'wrap', gap: '8px 32px', margin: 0 }}>
          {(
            [
              ['wel.tenant', user?.tenantId || tenantId],
              // named in the page's language by the home's answer (the sign-in's are in its own)
              ['wel.role', home.data?.roleName || user?.roleName],
              ['wel.account', user?.account],
              ['wel.today', today],
            ] as const
          ).map(([key, value]) => (
            <div key={key} style={{ display: 'flex', gap: 6 }}>
              <dt style={{ color: 'var(--shell-text-secondary)' }}>{t(key)}</dt>
              <dd style={{ margin: 0 }}>{value || '-'}</dd>
            </div>
          ))}
        </dl>
        {data && <SinceLine since={data.since} />}
      </section>

      {home.isPending && (
        <p aria-busy="true" style={{ margin: 0, color: 'var(--shell-text-secondary)' }}>
          {t('home.loadingWorkplace')}
        </p>
      )}
      {home.isError && (
        <p role="alert" style={{ margin: 0 }}>
          {t('home.failed')}{' '}
          <Button size="small" onClick={() => home.refetch()}>
            {t('common.retry')}
          </Button>
        </p>
      )}

      {data && (
        <div data-testid="home-workplace" style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
          {data.figures.length > 0 && (
            <section aria-labelledby="home-figures">
              <Typography.Title level={2} id="home-figures" style={{ fontSize: 18, margin: '0 0 12px' }}>
                {t('home.figures')}
              </Typography.Title>
              {/* a wrapping row whose cards grow to fill it: no holes, whatever the number of figures */}
              <ul data-testid="home-figures-grid" style={FILL_ROWS}>
                {data.figures.map((f) => {
                  const page = menuPage(f.route);
                  const label = f.name;
                  const body = (
                    <span style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
                      <span style={{ fontSize: 28, fontWeight: 600, color: 'var(--shell-text)' }}>
                        {f.value}
                      </span>
                      <span style={{ color: 'var(--shell-text-secondary)' }}>{label}</span>
                    </span>
                  );
                  return (
                    <li key={f.key} style={{ flex: '1 1 180px' }}>
                      <Card size="small" hoverable={!!page}>
                        {page ? (
                          <Link to={page.path} aria-label={`${label} ${f.value}`}>
                            {body}
                          </Link>
                        ) : (
                          body
                        )}
                      </Card>
                    </li>
                  );
                })}
              </ul>
            </section>
          )}
          <div style={GRID(340)}>
            {data.todo && (
              <TaskCard
                id="home-todo"
                title={t('home.todo')}
                part={data.todo}
                all={menuPage('/work/todo')?.path}
                open={(task) =>
                  task.route && task.businessId
                    ? processPaths.handle(task.route, task.taskId, task.processInstanceId, task.businessId)
                    : menuPage('/work/todo')?.path
                }
              />
            )}
            {data.claim && (
              <TaskCard
                id="home-claim"
                title={t('home.claim')}
                part={data.claim}
                all={menuPage('/work/claim')?.path}
                open={() => menuPage('/work/claim')?.path}
              />
            )}
            {data.running && (
              <PartCard
                id="home-running"
                title={t('home.running')}
                extra={<Total n={data.running.total} to={menuPage('/work/send')?.path} />}
              >
                <Rows empty={data.running.latest.length === 0}>
                  {data.running.latest.map((r) => (
                    <Row
                      key={r.processInstanceId}
                      to={
                        r.route && r.businessId
                          ? processPaths.detail(r.route, r.processInstanceId, r.businessId)
                          : menuPage('/work/send')?.path
                      }
                      title={r.processName}
                      meta={[
                        r.current ? t('home.currentStep', { name: r.current }) : t('home.ended'),
                        r.startTime,
                      ]}
                    />
                  ))}
                </Rows>
              </PartCard>
            )}
            {data.notices && (
              <PartCard
                id="home-notices"
                title={t('home.notices')}
                extra={<Total to={menuPage('/desk/notice')?.path} />}
              >
                <Rows empty={data.notices.length === 0}>
                  {data.notices.map((n) => (
                    <Row
                      key={n.id}
                      to={menuPage('/desk/notice')?.path}
                      // the notice screen opens with this notice's view dialog
                      state={{ view: n.id }}
                      title={n.title}
                      badge={n.fresh ? t('home.fresh') : undefined}
                      meta={[n.categoryName, n.releaseTime]}
                    />
                  ))}
                </Rows>
              </PartCard>
            )}
            <PartCard id="home-shortcuts" title={t('home.shortcuts')}>
              {shortcuts.length === 0 ? (
                <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
                  {t('home.noShortcuts')}
                </Typography.Paragraph>
              ) : (
                <ul style={{ ...GRID(130), gap: 8 }}>
                  {shortcuts.map(({ entry, n }) => (
                    <li key={entry!.path}>
                      <Link
                        to={entry!.path}
                        title={t('home.visits', { n })}
                        style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '6px 8px' }}
                      >
                        <MenuIcon name={menuIcon(items, entry!.path)} />
                        <span>{entry!.name}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </PartCard>
          </div>
          {data.figures.length === 0 && !data.todo && !data.claim && !data.notices && items.length === 0 && (
            <Typography.Paragraph type="secondary">{t('wel.noAreas')}</Typography.Paragraph>
          )}
        </div>
      )}
    </div>
  );
}

const FILL_ROWS: CSSProperties = {
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexWrap: 'wrap',
  gap: 16,
};

const GRID = (min: number): CSSProperties => ({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: 16,
  gridTemplateColumns: `repeat(auto-fill, minmax(${min}px, 1fr))`,
});

/** the icon of the menu page at `path` */
function menuIcon(items: ReturnType<typeof useNavMenu>['items'], path: string): string {
  for (const item of items) {
    if (item.path === path) return item.icon;
    const inner = menuIcon(item.children, path);
    if (inner) return inner;
  }
  return '';
}

function SinceLine({ since }: { since: HomeWorkplace['since'] }) {
  const { t } = useTranslation();
  if (!since)
    return (
      <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0' }}>
        {t('home.firstSignIn')}
      </Typography.Paragraph>
    );
  const changes = [
    since.todo !== undefined && t('home.sinceTodo', { n: since.todo }),
    since.notices !== undefined && t('home.sinceNotices', { n: since.notices }),
    since.alarms !== undefined && t('home.sinceAlarms', { n: since.alarms }),
  ].filter(Boolean);
  return (
    <p data-testid="home-since" style={{ margin: '12px 0 0' }}>
      <strong>{t('home.since', { at: since.at })}</strong>
      {changes.length ? changes.join(' · ') : t('home.nothingNew')}
    </p>
  );
}

function PartCard({
  id,
  title,
  extra,
  children,
}: {
  id: string;
  title: string;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} data-testid={id}>
      <Card
        size="small"
        title={
          <Typography.Title level={2} id={id} style={{ fontSize: 16, margin: 0 }}>
            {title}
          </Typography.Title>
        }
        extra={extra}
        style={{ height: '100%' }}
      >
        {children}
      </Card>
    </section>
  );
}

function Total({ n, to }: { n?: number; to?: string }) {
  const { t } = useTranslation();
  return (
    <span style={{ display: 'flex', gap: 12, alignItems: 'center' }}>
      {n !== undefined && <span>{t('home.itemCount', { n })}</span>}
      {to && <Link to={to}>{t('home.viewAll')}</Link>}
    </span>
  );
}

function Rows({ empty, children }: { empty: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  if (empty)
    return (
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('home.none')}
      </Typography.Paragraph>
    );
  return <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>{children}</ul>;
}

function Row({
  to,
  state,
  title,
  meta,
  badge,
}: {
  to?: string;
  state?: unknown;
  title: string;
  meta: string[];
  badge?: string;
}) {
  return (
    <li style={{ padding: '8px 0', borderBottom: '1px solid rgba(5,5,5,.06)' }}>
      <span style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        {badge && (
          <span
            style={{
              fontSize: 12,
              padding: '0 6px',
              borderRadius: 4,
              background: '#fff1f0',
              color: '#a8071a',
            }}
          >
            {badge}
          </span>
        )}
        {to ? (
          <Link to={to} state={state}>
            {title}
          </Link>
        ) : (
          <span>{title}</span>
        )}
      </span>
      <span
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: '0 12px',
          fontSize: 12,
          color: 'var(--shell-text-secondary)',
        }}
      >
        {meta.filter(Boolean).map((m) => (
          <span key={m}>{m}</span>
        ))}
      </span>
    </li>
  );
}

type Unit = 'days' | 'hours' | 'minutes';
/** how long a task has waited: the largest two units (`2 天 3 小时`), minutes only under a day */
function waitedText(unit: (u: Unit, n: number) => string, justNow: string, seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const parts: string[] = [];
  if (d) parts.push(unit('days', d));
  if (h) parts.push(unit('hours', h));
  if (!d && m) parts.push(unit('minutes', m));
  return parts.length ? parts.join(' ') : justNow;
}

function TaskCard({
  id,
  title,
  part,
  all,
  open,
}: {
  id: string;
  title: string;
  part: { total: number; oldest: HomeTask[] };
  all?: string;
  open: (task: HomeTask) => string | undefined;
}) {
  const { t } = useTranslation();
  const unit = (u: Unit, n: number) => t(`home.${u}`, { n });
  return (
    <PartCard id={id} title={title} extra={<Total n={part.total} to={all} />}>
      <Rows empty={part.oldest.length === 0}>
        {part.oldest.map((task) => (
          <Row
            key={task.taskId}
            to={open(task)}
            title={`${task.processName} · ${task.taskName}`}
            meta={[
              t('home.waited', { time: waitedText(unit, t('home.justNow'), task.waited) }),
              task.startUserName && t('home.from', { name: task.startUserName }),
            ]}
          />
        ))}
      </Rows>
    </PartCard>
  );
}
