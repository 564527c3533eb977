/** What the three leave pages share: their params, leaving the page, the record, the timeline, the diagram. */
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Empty, Spin, Tag, Timeline, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useTags } from '../../../platform/session/tags';
import { matchPattern } from '../../../shell/guard';
import { fetchHistory, fetchModelView, type HistoryEntry } from '../../flow/api';
import { fetchLeave, type LeaveDetail, leaveDays } from './leave';

/** The page's own params (a kept-alive page keeps its own location while hidden). */
export function usePatternParams<K extends string>(pattern: string): Partial<Record<K, string>> {
  const { pathname } = useLocation();
  return (matchPattern(pattern, pathname) ?? {}) as Partial<Record<K, string>>;
}

/** Goes to `to` and closes this page's tab: a submitted form or a handled task has nothing left to show. */
export function useLeavePage() {
  const navigate = useNavigate();
  const location = useLocation();
  return (to: string) => {
    const here = location.pathname + location.search;
    navigate(to);
    useTags.getState().remove(here);
  };
}

export function useLeave(businessId: string | undefined) {
  return useQuery({
    queryKey: ['leave', businessId],
    queryFn: () => fetchLeave(businessId!),
    enabled: !!businessId,
    refetchOnMount: 'always',
  });
}

export function LeaveInfo({ leave }: { leave: LeaveDetail }) {
  const { t } = useTranslation();
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, sm: 1, md: 2 }}
      items={[
        { key: 'applyUser', label: t('work.leave.applicant'), children: leave.applyUserName || '—' },
        { key: 'applyTime', label: t('work.leave.applyTime'), children: leave.applyTime },
        { key: 'taskUser', label: t('work.leave.approver'), children: leave.taskUserName || '—' },
        {
          key: 'state',
          label: t('work.status.title'),
          children:
            leave.processIsFinished === 'finished' ? (
              <Tag color="success">{t('work.status.finished')}</Tag>
            ) : (
              <Tag color="processing">{t('work.status.running')}</Tag>
            ),
        },
        { key: 'startTime', label: t('work.leave.startTime'), children: leave.startTime },
        { key: 'endTime', label: t('work.leave.endTime'), children: leave.endTime },
        {
          key: 'days',
          label: t('work.leave.days'),
          children: t('work.leave.daysValue', { days: leaveDays(leave.startTime, leave.endTime) }),
        },
        { key: 'reason', label: t('work.leave.reason'), children: leave.reason, span: 'filled' },
      ]}
    />
  );
}

export function LeaveRecord({ businessId }: { businessId: string | undefined }) {
  const leave = useLeave(businessId);
  if (leave.isLoading) return <Spin />;
  if (!leave.data) return <Empty />;
  return <LeaveInfo leave={leave.data} />;
}

/** 流转记录: who did what, when, how long it took and what they said (process/history-flow-list). */
export function HistoryTimeline({ processInstanceId }: { processInstanceId: string | undefined }) {
  const { t } = useTranslation();
  const history = useQuery({
    queryKey: ['flow-history', processInstanceId],
    queryFn: () => fetchHistory(processInstanceId!),
    enabled: !!processInstanceId,
    refetchOnMount: 'always',
  });
  if (history.isLoading) return <Spin />;
  const rows = history.data ?? [];
  if (!rows.length) return <Empty description={t('work.history.empty')} />;
  const kindOf = (h: HistoryEntry) =>
    h.historyActivityType === 'StartEvent'
      ? t('work.history.started')
      : h.historyActivityType === 'EndEvent'
        ? t('work.history.ended')
        : h.endTime
          ? t('work.history.handled')
          : t('work.history.waiting');
  return (
    <Timeline
      items={rows.map((h, i) => ({
        key: `${h.historyActivityId}-${i}`,
        color: h.endTime ? 'green' : 'blue',
        title: (
          <span>
            <strong>{h.historyActivityName}</strong> · {kindOf(h)}
          </span>
        ),
        content: (
          <div style={{ color: '#606266', fontSize: 13 }}>
            <div>
              {t('work.history.who')}: {h.assigneeName || '—'}
            </div>
            <div>
              {t('work.history.when')}: {h.createTime}
              {h.endTime && h.endTime !== h.createTime ? ` → ${h.endTime}` : ''}
              {h.durationTime && h.historyActivityType === 'UserTask'
                ? ` (${t('work.history.took', { duration: h.durationTime })})`
                : ''}
            </div>
            {h.comment && (
              <div>
                {t('work.comment')}: {h.comment}
              </div>
            )}
          </div>
        ),
      }))}
    />
  );
}

/**
 * The instance's diagram drawn in the page, marked as in the shell's flow diagram dialog (finished nodes
 * in the success colour, active ones in the primary colour, sequence flows taken in the warning colour):
 * the same renderer (shell/flow/viewer.ts), loaded with this page only.
 */
export function InlineDiagram({ processInstanceId }: { processInstanceId: string | undefined }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const ref = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const view = useQuery({
    queryKey: ['flow-model-view', { processInstanceId }],
    queryFn: () => fetchModelView({ processInstanceId: processInstanceId! }),
    enabled: !!processInstanceId,
    refetchOnMount: 'always',
  });
  const data = view.data;
  useEffect(() => {
    const el = ref.current;
    if (!data || !el) return;
    let gone = false;
    let destroy: (() => void) | undefined;
    setState('loading');
    import('../../../shell/flow/viewer')
      .then(({ renderDiagram }) => renderDiagram(el, data.xml, data.flow))
      .then((viewer) => {
        if (gone) viewer.destroy();
        else {
          destroy = () => viewer.destroy();
          setState('ready');
        }
      })
      .catch(() => !gone && setState('error'));
    return () => {
      gone = true;
      destroy?.();
    };
  }, [data]);
  const legend: [string, string][] = [
    ['finished', token.colorSuccess],
    ['active', token.colorPrimary],
    ['sequence', token.colorWarning],
  ];
  return (
    <>
      <ul
        aria-label={t('work.legend')}
        style={{ display: 'flex', gap: 16, listStyle: 'none', padding: 0, margin: '0 0 8px' }}
      >
        {legend.map(([kind, colour]) => (
          <li key={kind} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
            <span aria-hidden style={{ width: 12, height: 12, borderRadius: 2, background: colour }} />
            {t(`work.mark.${kind}`)}
          </li>
        ))}
      </ul>
      <div
        ref={ref}
        className="flow-diagram"
        role="img"
        aria-label={t('work.diagramOf')}
        aria-busy={state === 'loading'}
        style={
          {
            '--flow-success': token.colorSuccess,
            '--flow-primary': token.colorPrimary,
            '--flow-warning': token.colorWarning,
            height: 360,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: 6,
          } as React.CSSProperties
        }
      />
      {(state === 'error' || view.isError) && (
        <Alert type="error" showIcon role="alert" title={t('work.diagramError')} />
      )}
    </>
  );
}
