/**
 * 自动回复: the generic list of rules with, above it, a test box — a text a follower might send (or a
 * subscription) answered by the server's own matcher (`GET wxAutoReply/test?text=` / `?event=subscribe`,
 * `wxReplyFor`): which rule answers, its kind, keywords and reply, or that none does. Each row's 启用 is a
 * switch for whoever holds `wxAutoReply_enable` (`POST enable` `{ id, enabled }`; a keyword clash is the
 * server's 409, shown by the http client, and the switch stays as it was).
 */
import './i18n';
import './mp-i18n';
import { WX_DICT, wxAutoReplyResource } from '@smart/contracts/wechat-mp';
import { Alert, App, Button, Card, Descriptions, Flex, Input, Space, Switch, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, type Row } from '../../platform/crud/CrudPage';
import { useDict } from '../../platform/crud/dict';
import { EMPTY } from '../../platform/crud/values';
import { getData, postData } from '../../platform/http/client';
import { can, useSession } from '../../platform/session/session';
import { AccountPicker } from './AccountPicker';
import { useWxAccounts } from './accounts';

const BASE = `/api/${wxAutoReplyResource.service}/${wxAutoReplyResource.path}`;
const CODE = wxAutoReplyResource.permission;

interface TestAnswer {
  hit: boolean;
  ruleId: string | null;
  kind: string | null;
  keywords: string | null;
  reply: string | null;
}

const ruleName = (row: Row, kindName: (k: unknown) => string) =>
  String(row.keywords ?? '') || kindName(row.kind);

function useKindName() {
  const kinds = useDict(WX_DICT.wx_reply_kind).data ?? [];
  return (k: unknown) => kinds.find((e) => e.dictKey === String(k))?.dictValue ?? String(k ?? '');
}

function TestBox() {
  const { t } = useTranslation();
  const kindName = useKindName();
  const { accounts, accountId, setAccountId } = useWxAccounts();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ asked: string; result: TestAnswer } | null>(null);

  const run = async (subscribe: boolean) => {
    if (!subscribe && !text.trim()) return;
    setBusy(true);
    try {
      const result = await getData<TestAnswer>(`${BASE}/test`, {
        ...(subscribe ? { event: 'subscribe' } : { text }),
        accountId,
      });
      setAnswer({ asked: subscribe ? t('wxmp.reply.testSubscribe') : text, result });
    } catch {
      // the http client has said what went wrong (no account, no grant)
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card size="small" title={t('wxmp.reply.test')} variant="borderless">
      <Flex wrap gap={8} align="center">
        <AccountPicker accounts={accounts} accountId={accountId} onChange={setAccountId} />
        <Space.Compact style={{ flex: '1 1 320px', maxWidth: 560 }}>
          <Input
            aria-label={t('wxmp.reply.testText')}
            placeholder={t('wxmp.reply.testText')}
            value={text}
            maxLength={600}
            onChange={(e) => setText(e.target.value)}
            onPressEnter={() => run(false)}
          />
          <Button type="primary" loading={busy} onClick={() => run(false)} disabled={!text.trim()}>
            {t('wxmp.reply.testRun')}
          </Button>
        </Space.Compact>
        <Button onClick={() => run(true)} disabled={busy}>
          {t('wxmp.reply.testSubscribe')}
        </Button>
      </Flex>
      {answer && (
        <div role="status" aria-live="polite" style={{ marginTop: 12 }}>
          {answer.result.hit ? (
            <Alert
              type="success"
              showIcon
              title={t('wxmp.reply.hit', { kind: kindName(answer.result.kind) })}
              description={
                <Descriptions size="small" column={1}>
                  {answer.result.keywords && (
                    <Descriptions.Item label={t('wxmp.reply.keywords')}>
                      {answer.result.keywords}
                    </Descriptions.Item>
                  )}
                  <Descriptions.Item label={t('wxmp.reply.reply')}>{answer.result.reply}</Descriptions.Item>
                </Descriptions>
              }
            />
          ) : (
            <Alert type="warning" showIcon title={t('wxmp.reply.none')} />
          )}
        </div>
      )}
    </Card>
  );
}

function EnableSwitch({ row, name }: { row: Row; name: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [on, setOn] = useState(Number(row.enabled) === 1);
  // a refreshed list is the truth again
  useEffect(() => setOn(Number(row.enabled) === 1), [row.enabled]);
  const toggle = async (next: boolean) => {
    setBusy(true);
    try {
      await postData(`${BASE}/enable`, { id: row.id, enabled: next ? 1 : 0 });
      setOn(next);
      message.success(t('common.succeeded'));
    } catch {
      // the http client has said why (a keyword another enabled rule claims: 409); the switch stays
    } finally {
      setBusy(false);
    }
  };
  return (
    <Switch
      size="small"
      checked={on}
      loading={busy}
      onChange={toggle}
      aria-label={t('wxmp.reply.enabledOf', { name })}
    />
  );
}

/** 是 as a green tag, 否 as text: how the generic list shows a switch */
function YesNo({ value }: { value: unknown }) {
  const { t } = useTranslation();
  return Number(value) === 1 ? <Tag color="green">{t('common.yes')}</Tag> : <span>{t('common.no')}</span>;
}

export default function AutoReplyPage() {
  useSession((s) => s.permission); // re-render when grants change
  const kindName = useKindName();
  const canTest = can(CODE) || can(`${CODE}_test`);
  return (
    <Flex vertical gap={16}>
      {canTest && <TestBox />}
      <CrudPage
        def={wxAutoReplyResource}
        rowName={(row) => ruleName(row, kindName)}
        columns={{
          render: {
            // a reply is free text: it wraps, so the switch beside it stays in view
            replyContent: (v) =>
              v ? (
                <span className="crud-text" style={{ display: 'inline-block', maxWidth: '18em' }}>
                  {String(v)}
                </span>
              ) : (
                EMPTY
              ),
            enabled: (v, row) =>
              can(`${CODE}_enable`) ? (
                <EnableSwitch row={row} name={ruleName(row, kindName)} />
              ) : (
                <YesNo value={v} />
              ),
          },
        }}
        // the view dialog reads it, it does not switch it
        fields={{ enabled: { view: (v) => <YesNo value={v} /> } }}
      />
    </Flex>
  );
}
