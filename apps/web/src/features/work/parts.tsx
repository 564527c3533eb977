/**
 * What the pages of every process family share (the leave pages and the generic application pages): their
 * params, leaving the page, the process line and approver picker of a form, the server's field errors,
 * a request's record (who, when, where it stands), the timeline, the inline diagram, and the handle and
 * detail pages' frames.
 */
import './i18n';
import { ApartmentOutlined, CheckOutlined, CloseOutlined, SendOutlined } from '@ant-design/icons';
import type { Page } from '@smart/contracts/core';
import { useQuery } from '@tanstack/react-query';
import type { DescriptionsProps, FormInstance } from 'antd';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  Select,
  Space,
  Spin,
  Tag,
  Timeline,
  Typography,
  theme,
} from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { getData, HttpError, postData } from '../../platform/http/client';
import { useTags } from '../../platform/session/tags';
import { matchPattern } from '../../shell/guard';
import {
  FLOW_API,
  fetchHistory,
  fetchModelView,
  type HistoryEntry,
  userLabel,
  useTenantUsers,
} from '../flow/api';
import { useFlowDiagram } from '../flow/diagram';
import { useRefreshFlowLists } from '../flow/PagedList';

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

/** A definition the user may start, from start-list (a form's path carries only its id). */
export function useStartable(processDefinitionId: string | undefined) {
  const startable = useQuery({
    queryKey: ['flow-startable'],
    queryFn: () =>
      getData<
        Page<{
          processDefinitionId: string;
          processDefinitionName: string;
          processDefinitionVersion: number;
          categoryName: string;
        }>
      >(`${FLOW_API}/work/start-list`, { current: 1, size: 200 }),
    staleTime: 60_000,
  });
  return startable.data?.records.find((r) => r.processDefinitionId === processDefinitionId);
}

/** 流程: name and version of the process a form starts. */
export function ProcessLine({ processDefinitionId }: { processDefinitionId: string | undefined }) {
  const { t } = useTranslation();
  const definition = useStartable(processDefinitionId);
  return (
    <span>
      {t('work.process')}:{' '}
      {definition
        ? `${definition.processDefinitionName} v${definition.processDefinitionVersion}`
        : processDefinitionId}
    </span>
  );
}

/** The users of the tenant as a searchable select (a form's approver). */
export function ApproverSelect(props: {
  id?: string;
  value?: string;
  onChange?: (v: string | undefined) => void;
  allowClear?: boolean;
}) {
  const { t } = useTranslation();
  const users = useTenantUsers();
  return (
    <Select
      {...props}
      showSearch
      optionFilterProp="label"
      loading={users.isLoading}
      placeholder={t('work.approverPlaceholder')}
      options={(users.data ?? []).map((u) => ({ value: u.id, label: userLabel(u) }))}
    />
  );
}

/** Shows the server's field error (400 with `data.field`) on that field when the form has it. */
export function showFieldError<T extends object>(
  form: FormInstance<T>,
  fields: readonly string[],
  e: unknown,
) {
  const field = e instanceof HttpError ? (e.body as { data?: { field?: string } })?.data?.field : undefined;
  if (field && fields.includes(field))
    form.setFields([{ name: field as never, errors: [(e as Error).message] }]);
}

/**
 * A start form (发起): the process it starts, the fields (`children`), 提交 and 重置. Submitting posts
 * `toBody(values)` to `url`, says `started`, and goes to 已发事务; a field the server refuses is marked on
 * the form (one of `fields`).
 */
export function StartForm<V extends object>({
  title,
  name,
  processDefinitionId,
  form,
  fields,
  url,
  toBody,
  started,
  children,
}: {
  title: string;
  name: string;
  processDefinitionId: string | undefined;
  form: FormInstance<V>;
  fields: readonly string[];
  url: string;
  toBody: (values: V) => object;
  started: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const leavePage = useLeavePage();

  const submit = async (values: V) => {
    setBusy(true);
    try {
      await postData(url, { processDefinitionId, ...toBody(values) });
      message.success(started);
      leavePage('/work/send/index');
    } catch (e) {
      showFieldError(form, fields, e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      variant="borderless"
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{title}</h2>}
      style={{ maxWidth: 760 }}
    >
      <Typography.Paragraph type="secondary">
        <ProcessLine processDefinitionId={processDefinitionId} />
      </Typography.Paragraph>
      <Form<V> form={form} name={name} layout="vertical" onFinish={submit} aria-label={title} disabled={busy}>
        {children}
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={busy}>
              {t('work.submit')}
            </Button>
            <Button htmlType="button" onClick={() => form.resetFields()}>
              {t('wf.reset')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}

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
    import('../../shell/flow/viewer')
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

const heading = (text: string) => <h2 style={{ fontSize: 16, margin: 0 }}>{text}</h2>;
const subheading = (text: string) => <h3 style={{ fontSize: 15, margin: 0 }}>{text}</h3>;

/**
 * A handle page: the business record (`children`), the timeline, a required comment, 同意 (flag ok) or
 * 驳回 (no flag) through work/complete-task; then back to 待办事务.
 */
export function HandleTask({
  title,
  formName,
  taskId,
  processInstanceId,
  children,
}: {
  title: string;
  /** the comment form's name (its fields' ids) */
  formName: string;
  taskId: string | undefined;
  processInstanceId: string | undefined;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ comment: string }>();
  const [busy, setBusy] = useState<'ok' | 'reject' | null>(null);
  const refresh = useRefreshFlowLists();
  const leavePage = useLeavePage();
  const diagram = useFlowDiagram();

  const complete = async (decision: 'ok' | 'reject') => {
    let comment: string;
    try {
      ({ comment } = await form.validateFields());
    } catch {
      return;
    }
    setBusy(decision);
    try {
      await postData(`${FLOW_API}/work/complete-task`, {
        taskId,
        processInstanceId,
        ...(decision === 'ok' ? { flag: 'ok' } : {}),
        comment: comment.trim(),
        variables: {},
      });
      message.success(t('work.handle.done'));
      leavePage('/work/todo/index');
      void refresh();
    } catch {
      /* the client's toast shows why */
    } finally {
      setBusy(null);
    }
  };

  return (
    <Space direction="vertical" size={16} style={{ width: '100%', maxWidth: 960 }}>
      <Card
        variant="borderless"
        title={heading(title)}
        extra={
          <Button
            icon={<ApartmentOutlined />}
            onClick={() => processInstanceId && diagram.open({ processInstanceId })}
          >
            {t('wf.diagram')}
          </Button>
        }
      >
        {children}
      </Card>
      <Card variant="borderless" title={subheading(t('work.history.title'))}>
        <HistoryTimeline processInstanceId={processInstanceId} />
      </Card>
      <Card variant="borderless" title={subheading(t('work.handle.opinion'))}>
        <Form
          form={form}
          name={formName}
          layout="vertical"
          aria-label={t('work.handle.opinion')}
          disabled={!!busy}
        >
          <Form.Item
            name="comment"
            label={t('work.comment')}
            rules={[
              { required: true, whitespace: true, message: t('work.handle.commentRequired') },
              { max: 1000, message: t('wf.maxLength', { max: 1000 }) },
            ]}
          >
            <Input.TextArea rows={3} showCount maxLength={1000} />
          </Form.Item>
          <Space>
            <Button
              type="primary"
              icon={<CheckOutlined />}
              loading={busy === 'ok'}
              onClick={() => complete('ok')}
            >
              {t('work.approve')}
            </Button>
            <Button
              danger
              icon={<CloseOutlined />}
              loading={busy === 'reject'}
              onClick={() => complete('reject')}
            >
              {t('work.reject')}
            </Button>
          </Space>
        </Form>
      </Card>
      {diagram.element}
    </Space>
  );
}

/** A detail page, read-only: the business record (`children`), the diagram with its nodes marked, the timeline. */
export function ProcessDetail({
  title,
  processInstanceId,
  children,
}: {
  title: string;
  processInstanceId: string | undefined;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" size={16} style={{ width: '100%', maxWidth: 1100 }}>
      <Card variant="borderless" title={heading(title)}>
        {children}
      </Card>
      <Card variant="borderless" title={subheading(t('work.diagramOf'))}>
        <InlineDiagram processInstanceId={processInstanceId} />
      </Card>
      <Card variant="borderless" title={subheading(t('work.history.title'))}>
        <HistoryTimeline processInstanceId={processInstanceId} />
      </Card>
    </Space>
  );
}
