/** A request's record: who, when and where it stands, its timeline and its inline diagram. */
import '../i18n';
import { useQuery } from '@tanstack/react-query';
import type { DescriptionsProps } from 'antd';
import { Alert, Descriptions, Empty, Spin, Tag, Timeline, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchHistory, fetchModelView, type HistoryEntry } from '../../flow/api';

/** What every request record says about itself, whatever its family. */
export interface RequestStatus {
  applyUserName: string;
  applyTime: string;
  taskUserName: string;
  processIsFinished: 'finished' | 'unfinished';
}

type FactItems = NonNullable<DescriptionsProps['items']>;

/**
 * A request's record as a bordered list: its family's own items `before` and `after` who applied and when,
 * who approves, and whether it is finished.
 */
export function RequestFacts({
  request,
  before = [],
  after = [],
}: {
  request: RequestStatus;
  before?: FactItems;
  after?: FactItems;
}) {
  const { t } = useTranslation();
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, sm: 1, md: 2 }}
      items={[
        ...before,
        { key: 'applyUser', label: t('work.applicant'), children: request.applyUserName || '—' },
        { key: 'applyTime', label: t('work.applyTime'), children: request.applyTime },
        { key: 'taskUser', label: t('work.approver'), children: request.taskUserName || '—' },
        {
          key: 'state',
          label: t('work.status.title'),
          children:
            request.processIsFinished === 'finished' ? (
              <Tag color="success">{t('work.status.finished')}</Tag>
            ) : (
              <Tag color="processing">{t('work.status.running')}</Tag>
            ),
        },
        ...after,
      ]}
    />
  );
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
              {t('common.time')}: {h.createTime}
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
  const legend: ['finished' | 'active' | 'sequence', string][] = [
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
        aria-label={t('flow.diagram')}
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

/** The headings of a request's frames (handle and detail pages). */
export const heading = (text: string) => <h2 style={{ fontSize: 16, margin: 0 }}>{text}</h2>;
export const subheading = (text: string) => <h3 style={{ fontSize: 15, margin: 0 }}>{text}</h3>;
