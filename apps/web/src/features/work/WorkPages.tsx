/**
 * 我的事务: /work/start (what the user may start, by category; a row opens its category's form through
 * flowRoutes), /work/claim (签收), /work/todo (办理), /work/send (what the user started) and /work/done
 * (what the user handled) — each paged and filtered, with the flow diagram per row.
 */
import './i18n';
import {
  ApartmentOutlined,
  CheckSquareOutlined,
  EditOutlined,
  FileSearchOutlined,
  SendOutlined,
} from '@ant-design/icons';
import { App, Button, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDict } from '../../platform/crud/dict';
import { postData } from '../../platform/http/client';
import type { TextKey } from '../../platform/i18n';
import { FLOW_API } from '../flow/api';
import { useFlowDiagram } from '../flow/diagram';
import { PagedList, type SearchField, useRefreshFlowLists } from '../flow/PagedList';
import { flowRoutesOf, processPaths, routeOf } from './routes';

/** A row of start-list. */
interface StartRow {
  processDefinitionId: string;
  processDefinitionKey: string;
  processDefinitionName: string;
  processDefinitionVersion: number;
  category: string;
  categoryName: string;
  createTime: string;
}

/** A row of claim-, todo-, send- and done-list (api-contract.md §Workflow). */
export interface WorkRow {
  taskId?: string;
  taskName: string;
  taskDefinitionKey?: string;
  assignee?: string;
  assigneeName?: string;
  startUserName?: string;
  category: string;
  categoryName: string;
  createTime: string;
  endTime: string;
  claimTime?: string;
  processInstanceId: string;
  processDefinitionId: string;
  processDefinitionKey: string;
  processDefinitionName: string;
  processDefinitionVersion: number;
  businessId: string;
  processIsFinished: 'finished' | 'unfinished';
  /** send-list: running, finished or deleted */
  state?: string;
  flag?: string;
  comment?: string;
}

function useFlowRoutes() {
  return flowRoutesOf(useDict('flow').data);
}

function useWorkSearch(): SearchField[] {
  const { t } = useTranslation();
  return [
    { name: 'processDefinitionName', label: t('wf.processName') },
    { name: 'category', label: t('wf.category'), kind: 'category' },
  ];
}

function DiagramButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button type="link" size="small" icon={<ApartmentOutlined />} onClick={onClick}>
      {t('flow.diagram')}
    </Button>
  );
}

function StatusTag({ row }: { row: WorkRow }) {
  const { t } = useTranslation();
  if (row.state === 'deleted') return <Tag color="default">{t('work.status.deleted')}</Tag>;
  return row.processIsFinished === 'finished' ? (
    <Tag color="success">{t('work.status.finished')}</Tag>
  ) : (
    <Tag color="processing">{t('work.status.running')}</Tag>
  );
}

export function StartPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const routes = useFlowRoutes();
  const diagram = useFlowDiagram();
  const start = (row: StartRow) => {
    const route = routeOf(routes, row.category);
    if (!route) {
      message.warning(t('work.noForm', { name: row.categoryName || row.category || '—' }));
      return;
    }
    navigate(processPaths.form(route, row.processDefinitionId));
  };
  return (
    <>
      <PagedList<StartRow>
        title={t('work.start.title')}
        url={`${FLOW_API}/work/start-list`}
        rowKey={(r) => r.processDefinitionId}
        rowName={(r) => r.processDefinitionName}
        search={[
          { name: 'category', label: t('wf.category'), kind: 'category' },
          { name: 'name', label: t('wf.processName') },
        ]}
        columns={[
          { key: 'categoryName', dataIndex: 'categoryName', title: t('wf.category') },
          { key: 'name', dataIndex: 'processDefinitionName', title: t('wf.processName') },
          { key: 'key', dataIndex: 'processDefinitionKey', title: t('wf.processKey') },
          {
            key: 'version',
            dataIndex: 'processDefinitionVersion',
            title: t('wf.version'),
            render: (v: number) => `v${v}`,
          },
          { key: 'createTime', dataIndex: 'createTime', title: t('wf.manager.deploymentTime'), width: 170 },
        ]}
        actions={(row) => (
          <>
            <Button type="link" size="small" icon={<SendOutlined />} onClick={() => start(row)}>
              {t('work.start.do')}
            </Button>
            <DiagramButton
              onClick={() =>
                diagram.open({ processDefinitionId: row.processDefinitionId }, row.processDefinitionName)
              }
            />
          </>
        )}
      />
      {diagram.element}
    </>
  );
}

function taskColumns(t: (k: TextKey) => string, extra: ColumnsType<WorkRow> = []): ColumnsType<WorkRow> {
  return [
    { key: 'categoryName', dataIndex: 'categoryName', title: t('wf.category') },
    { key: 'name', dataIndex: 'processDefinitionName', title: t('wf.processName') },
    { key: 'taskName', dataIndex: 'taskName', title: t('work.taskName') },
    {
      key: 'version',
      dataIndex: 'processDefinitionVersion',
      title: t('wf.version'),
      render: (v: number) => `v${v}`,
    },
    { key: 'starter', dataIndex: 'startUserName', title: t('wf.starter') },
    ...extra,
  ];
}

export function ClaimPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const refresh = useRefreshFlowLists();
  const diagram = useFlowDiagram();
  const claim = async (row: WorkRow) => {
    await postData(`${FLOW_API}/work/claim-task`, undefined, { taskId: row.taskId });
    message.success(t('work.claim.done'));
    await refresh();
  };
  return (
    <>
      <PagedList<WorkRow>
        title={t('work.claim.title')}
        url={`${FLOW_API}/work/claim-list`}
        rowKey={(r) => r.taskId ?? r.processInstanceId}
        rowName={(r) => `${r.processDefinitionName} ${r.taskName}`}
        search={useWorkSearch()}
        columns={taskColumns(t, [
          { key: 'createTime', dataIndex: 'createTime', title: t('work.arrived'), width: 170 },
        ])}
        actions={(row) => (
          <>
            <Button type="link" size="small" icon={<CheckSquareOutlined />} onClick={() => claim(row)}>
              {t('work.claim.do')}
            </Button>
            <DiagramButton
              onClick={() =>
                diagram.open({ processInstanceId: row.processInstanceId }, row.processDefinitionName)
              }
            />
          </>
        )}
      />
      {diagram.element}
    </>
  );
}

export function TodoPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const routes = useFlowRoutes();
  const diagram = useFlowDiagram();
  const handle = (row: WorkRow) => {
    const route = routeOf(routes, row.category);
    if (!route || !row.businessId || !row.taskId) {
      message.warning(t('work.noForm', { name: row.categoryName || row.category || '—' }));
      return;
    }
    navigate(processPaths.handle(route, row.taskId, row.processInstanceId, row.businessId));
  };
  return (
    <>
      <PagedList<WorkRow>
        title={t('work.todo.title')}
        url={`${FLOW_API}/work/todo-list`}
        rowKey={(r) => r.taskId ?? r.processInstanceId}
        rowName={(r) => `${r.processDefinitionName} ${r.taskName}`}
        search={useWorkSearch()}
        columns={taskColumns(t, [
          { key: 'createTime', dataIndex: 'createTime', title: t('work.arrived'), width: 170 },
        ])}
        actions={(row) => (
          <>
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => handle(row)}>
              {t('work.todo.do')}
            </Button>
            <DiagramButton
              onClick={() =>
                diagram.open({ processInstanceId: row.processInstanceId }, row.processDefinitionName)
              }
            />
          </>
        )}
      />
      {diagram.element}
    </>
  );
}

function useDetail() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const routes = useFlowRoutes();
  return (row: WorkRow) => {
    const route = routeOf(routes, row.category);
    if (!route || !row.businessId) {
      message.warning(t('work.noForm', { name: row.categoryName || row.category || '—' }));
      return;
    }
    navigate(processPaths.detail(route, row.processInstanceId, row.businessId));
  };
}

function DetailButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button type="link" size="small" icon={<FileSearchOutlined />} onClick={onClick}>
      {t('work.detail')}
    </Button>
  );
}

export function SendPage() {
  const { t } = useTranslation();
  const detail = useDetail();
  const diagram = useFlowDiagram();
  return (
    <>
      <PagedList<WorkRow>
        title={t('work.send.title')}
        url={`${FLOW_API}/work/send-list`}
        rowKey={(r) => r.processInstanceId}
        rowName={(r) => `${r.processDefinitionName} ${r.createTime}`}
        search={useWorkSearch()}
        columns={[
          { key: 'categoryName', dataIndex: 'categoryName', title: t('wf.category') },
          { key: 'name', dataIndex: 'processDefinitionName', title: t('wf.processName') },
          {
            key: 'taskName',
            dataIndex: 'taskName',
            title: t('work.currentStep'),
            render: (v: string) => v || '—',
          },
          {
            key: 'version',
            dataIndex: 'processDefinitionVersion',
            title: t('wf.version'),
            render: (v: number) => `v${v}`,
          },
          {
            key: 'status',
            title: t('work.status.title'),
            render: (_: unknown, r: WorkRow) => <StatusTag row={r} />,
          },
          { key: 'createTime', dataIndex: 'createTime', title: t('wf.startTime'), width: 170 },
          { key: 'endTime', dataIndex: 'endTime', title: t('wf.endTime'), width: 170 },
        ]}
        actions={(row) => (
          <>
            <DetailButton onClick={() => detail(row)} />
            <DiagramButton
              onClick={() =>
                diagram.open({ processInstanceId: row.processInstanceId }, row.processDefinitionName)
              }
            />
          </>
        )}
      />
      {diagram.element}
    </>
  );
}

export function DonePage() {
  const { t } = useTranslation();
  const detail = useDetail();
  const diagram = useFlowDiagram();
  return (
    <>
      <PagedList<WorkRow>
        title={t('work.done.title')}
        url={`${FLOW_API}/work/done-list`}
        rowKey={(r) => r.taskId ?? r.processInstanceId}
        rowName={(r) => `${r.processDefinitionName} ${r.taskName}`}
        search={useWorkSearch()}
        columns={taskColumns(t, [
          {
            key: 'flag',
            dataIndex: 'flag',
            title: t('work.decision'),
            render: (v: string) =>
              v === 'ok' ? (
                <Tag color="success">{t('work.approve')}</Tag>
              ) : v ? (
                <Tag color="error">{t('work.reject')}</Tag>
              ) : null,
          },
          { key: 'comment', dataIndex: 'comment', title: t('work.comment'), ellipsis: true },
          {
            key: 'status',
            title: t('work.status.title'),
            render: (_: unknown, r: WorkRow) => <StatusTag row={r} />,
          },
          { key: 'endTime', dataIndex: 'endTime', title: t('work.handledAt'), width: 170 },
        ])}
        actions={(row) => (
          <>
            <DetailButton onClick={() => detail(row)} />
            <DiagramButton
              onClick={() =>
                diagram.open({ processInstanceId: row.processInstanceId }, row.processDefinitionName)
              }
            />
          </>
        )}
      />
      {diagram.element}
    </>
  );
}
