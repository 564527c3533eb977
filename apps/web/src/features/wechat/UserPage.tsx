/**
 * 粉丝管理: the generic list of followers with, above it, the synchronisation as a visible job — the account's
 * state (同步中 / 已完成 / 已中断), `done` of `total` as a progress bar, polled (`GET wxUser/synchron/progress`)
 * while it runs, the list refreshed when it ends. An interrupted run resumes at the page it reached
 * (`POST wxUser/synchron` `{ accountId }`) or starts over (`restart: true`); its error is the account's
 * `syncError` (`wxAccount/detail`).
 */
import './i18n';
import './mp-i18n';
import { SyncOutlined } from '@ant-design/icons';
import { WX_DICT, wxUserResource } from '@smart/contracts/wechat-mp';
import { WX_SYNC } from '@smart/contracts/wechat-rules';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Progress, Space, Tag, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import { useDict } from '../../platform/crud/dict';
import { getData, postData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';
import { AccountPicker } from './AccountPicker';
import { useWxAccounts, WX_API } from './accounts';

const BASE = `${WX_API}/${wxUserResource.path}`;
const CODE = wxUserResource.permission;
/** how often a running synchronisation is asked for its progress */
const POLL_MS = 1_000;

interface SyncProgress {
  accountId: string;
  state: string | null;
  done: number;
  total: number | null;
}

const STATE_COLOUR: Record<string, string> = {
  [WX_SYNC.running]: 'processing',
  [WX_SYNC.done]: 'green',
  [WX_SYNC.interrupted]: 'red',
};

function SyncBox({ onFinished }: { onFinished: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { accounts, accountId, setAccountId } = useWxAccounts();
  const states = useDict(WX_DICT.wx_sync_state).data ?? [];
  const [progress, setProgress] = useState<SyncProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const finished = useRef(onFinished);
  finished.current = onFinished;

  // a run seen running and then seen ended (by a poll, or already in the start's answer): the list follows
  const was = useRef<string | null>(null);
  const seen = useCallback((p: SyncProgress, started = false) => {
    if ((started || was.current === WX_SYNC.running) && p.state !== WX_SYNC.running) finished.current();
    was.current = p.state;
    setProgress(p);
  }, []);

  const ask = useCallback(
    async (id: string) => {
      const p = await getData<SyncProgress>(`${BASE}/synchron/progress`, { accountId: id });
      seen(p);
      if (p.state === WX_SYNC.interrupted) {
        const acct = await getData<{ syncError?: string | null }>(`${WX_API}/wxAccount/detail`, { id }).catch(
          () => null,
        );
        setError(acct?.syncError || null);
      } else setError(null);
      return p;
    },
    [seen],
  );

  useEffect(() => {
    if (accountId) void ask(accountId).catch(() => {});
  }, [accountId, ask]);

  // while it runs: asked again every second; the list follows when it ends
  const running = progress?.state === WX_SYNC.running;
  useEffect(() => {
    if (!running || !accountId) return;
    const timer = setInterval(() => void ask(accountId).catch(() => {}), POLL_MS);
    return () => clearInterval(timer);
  }, [running, accountId, ask]);

  const start = async (restart: boolean) => {
    if (!accountId) return;
    setBusy(true);
    try {
      seen(await postData<SyncProgress>(`${BASE}/synchron`, { accountId, restart }), true);
      setError(null);
      message.success(t('wxmp.users.started'));
    } catch {
      // the http client has said why (one already running: 409; WeChat's refusal)
    } finally {
      setBusy(false);
    }
  };

  const state = progress?.state ?? null;
  const stateName = states.find((e) => e.dictKey === state)?.dictValue;
  const total = progress?.total ?? null;
  const done = progress?.done ?? 0;
  const percent = total ? Math.min(100, Math.round((done / total) * 100)) : state === WX_SYNC.done ? 100 : 0;
  const canSync = can(`${CODE}_synchron`);

  return (
    <Card size="small" variant="borderless" title={t('wxmp.users.sync')}>
      <Flex wrap gap={12} align="center">
        <AccountPicker accounts={accounts} accountId={accountId} onChange={setAccountId} />
        {state ? (
          <Tag color={STATE_COLOUR[state]}>{stateName ?? state}</Tag>
        ) : (
          <Typography.Text type="secondary">{t('wxmp.users.never')}</Typography.Text>
        )}
        <div style={{ flex: '1 1 240px', maxWidth: 420 }}>
          <Progress
            percent={percent}
            status={state === WX_SYNC.interrupted ? 'exception' : running ? 'active' : undefined}
            // the figures are the status beside it (antd's green figures are too faint on white)
            showInfo={false}
            aria-label={t('wxmp.users.progress')}
          />
        </div>
        <Typography.Text role="status" aria-live="polite">
          {total === null ? t('wxmp.users.doneOnly', { done }) : t('wxmp.users.doneOf', { done, total })}
        </Typography.Text>
        {canSync && (
          <Space>
            <Button
              type="primary"
              icon={<SyncOutlined spin={running} />}
              loading={busy}
              disabled={running}
              onClick={() => start(false)}
            >
              {state === WX_SYNC.interrupted ? t('wxmp.users.resume') : t('wxmp.users.start')}
            </Button>
            {state === WX_SYNC.interrupted && (
              <Button disabled={busy} onClick={() => start(true)}>
                {t('wxmp.users.restart')}
              </Button>
            )}
          </Space>
        )}
      </Flex>
      {state === WX_SYNC.interrupted && (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 12 }}
          title={t('wxmp.users.interrupted', { done })}
          description={error ?? undefined}
        />
      )}
    </Card>
  );
}

export default function UserPage() {
  useSession((s) => s.permission); // re-render when grants change
  const qc = useQueryClient();
  return (
    <Flex vertical gap={16}>
      {/* once a synchronisation ends the list reads the followers afresh (the list's own refresh) */}
      <SyncBox onFinished={() => void qc.invalidateQueries({ queryKey: ['crud', wxUserResource.key] })} />
      <CrudPage def={wxUserResource} />
    </Flex>
  );
}
