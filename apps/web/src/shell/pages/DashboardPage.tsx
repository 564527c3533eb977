/**
 * /wel/dashboard — the console (hidden from the menu): figures read from the server (users, notices,
 * today's API calls, the user's menu pages) and the API calls of the last seven days as a small SVG chart.
 */
import '../layout/i18n';
import { FIRST_PAGE } from '@smart/contracts/core';
import { useQueries } from '@tanstack/react-query';
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { getData } from '../../platform/http/client';
import { formatTime } from '../../platform/session/errorLog';
import { dayStart } from '../../platform/time';
import { useNavMenu } from '../layout/useNavMenu';

/** the deployment's day `offset` days ago */
const day = (offset: number) =>
  formatTime(new Date(dayStart() - offset * 86_400_000 + 3_600_000)).slice(0, 10);

/** A list's total (a page of one row). */
const total =
  (url: string, params: Record<string, string> = {}) =>
  () =>
    getData<{ total: number }>(url, { current: 1, size: 1, ...params }, { silent: true }).then(
      (p) => p.total,
    );

export default function DashboardPage() {
  const { t } = useTranslation();
  const { entries } = useNavMenu();
  // the last seven days, oldest first; the last is today
  const days = [6, 5, 4, 3, 2, 1, 0].map(day);
  const [users, notices, ...week] = useQueries({
    queries: [
      { queryKey: ['dash', 'users'], queryFn: total('/api/dfem-user/page') },
      { queryKey: ['dash', 'notices'], queryFn: total('/api/dfem-desk/notice/list') },
      // a bare end date includes its whole day
      ...days.map((d) => ({
        queryKey: ['dash', 'api-day', d],
        queryFn: total('/api/dfem-log/api/list', { createTime_dategt: d, createTime_datelt: d }),
      })),
    ],
  });
  const apiToday = week[week.length - 1];
  const menuPages = entries.length;
  const figure = (q: { data?: number; isError: boolean }) => (q.isError ? '—' : (q.data ?? '…'));
  const cards = [
    { key: 'users', label: t('dashboard.users'), value: figure(users) },
    { key: 'notices', label: t('dashboard.notices'), value: figure(notices) },
    { key: 'apiToday', label: t('dashboard.apiToday'), value: figure(apiToday) },
    { key: 'menus', label: t('dashboard.menus'), value: menuPages },
  ];
  const bars = week.map((q, i) => ({ day: days[i].slice(5), value: q.data ?? 0 }));
  const max = Math.max(1, ...bars.map((b) => b.value));

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <h1 style={{ fontSize: 20, margin: 0 }}>{t('route.dashboard')}</h1>
      <ul
        aria-label={t('dashboard.figures')}
        // a wrapping row whose cards grow to fill it: no holes at any width
        style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexWrap: 'wrap', gap: 16 }}
      >
        {cards.map((card) => (
          <li key={card.key} style={{ flex: '1 1 200px' }}>
            <Card size="small">
              <div style={{ color: 'var(--shell-text-secondary)' }}>{card.label}</div>
              <div data-figure={card.key} style={{ fontSize: 28, fontWeight: 600, marginTop: 4 }}>
                {card.value}
              </div>
            </Card>
          </li>
        ))}
      </ul>
      <Card size="small" title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('dashboard.apiWeek')}</h2>}>
        <svg
          role="img"
          aria-label={t('dashboard.apiWeekChart', {
            values: bars.map((b) => `${b.day}: ${b.value}`).join(', '),
          })}
          viewBox="0 0 350 160"
          style={{ width: '100%', maxWidth: 560, display: 'block' }}
        >
          {bars.map((b, i) => {
            const h = Math.round((b.value / max) * 110);
            const x = 10 + i * 48;
            return (
              <g key={b.day}>
                <rect
                  x={x}
                  y={130 - h}
                  width={32}
                  height={h}
                  rx={3}
                  fill="var(--ant-color-primary, #409eff)"
                />
                <text x={x + 16} y={124 - h} fontSize="11" textAnchor="middle" fill="currentColor">
                  {b.value}
                </text>
                <text x={x + 16} y={148} fontSize="11" textAnchor="middle" fill="currentColor">
                  {b.day}
                </text>
              </g>
            );
          })}
        </svg>
      </Card>
      <Link to={FIRST_PAGE}>{t('dashboard.backHome')}</Link>
    </div>
  );
}
