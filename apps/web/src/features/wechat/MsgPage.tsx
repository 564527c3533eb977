/**
 * 消息管理: the chosen account's messages as conversations, one per follower (the latest first; received
 * messages on one side, the replies — passive and customer-service — on the other), and a reply box offered
 * only within WeChat's 48 hours after the follower last wrote (`wxReplyOpen`, read in the deployment's zone);
 * outside them the box is replaced by WeChat's own words for why. A reply is `POST wxMsg/reply` `{ id,
 * content }` answering the follower's last message (button `wxMsg_reply`). The second tab is the generic list
 * of every message and event.
 */
import './i18n';
import './mp-i18n';
import { SendOutlined } from '@ant-design/icons';
import { wxMsgResource, wxUserResource } from '@smart/contracts/wechat-mp';
import { WX_DIRECTION, WX_ERRORS } from '@smart/contracts/wechat-rules';
import { Alert, App, Button, Card, Empty, Flex, Input, List, Tabs, Typography, theme } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../platform/crud/CrudPage';
import { getData, postData } from '../../platform/http/client';
import { currentLanguage } from '../../platform/i18n';
import { can, useSession } from '../../platform/session/session';
import { deploymentZone } from '../../platform/session/settings';
import { formatMoment } from '../../platform/time';
import { AccountPicker } from './AccountPicker';
import { useWxAccounts, WX_API } from './accounts';
import { type Conversation, conversations, replyWindow, type WxMsgRow } from './conversation';

const MSG = `${WX_API}/${wxMsgResource.path}`;
const USERS = `${WX_API}/${wxUserResource.path}`;
const REPLY_CODE = `${wxMsgResource.permission}_reply`;
/** the latest messages read for the conversations (the list tab has them all) */
const READ = 200;

interface Follower {
  openid: string;
  nickname?: string | null;
  remark?: string | null;
}

function Bubble({ m }: { m: WxMsgRow }) {
  const { token } = theme.useToken();
  const mine = String(m.direction) === WX_DIRECTION.replied;
  const event = m.msgType === 'event';
  if (event)
    return (
      <Typography.Text type="secondary" style={{ alignSelf: 'center', fontSize: 12 }}>
        {m.msgTime} · {m.content || m.event}
      </Typography.Text>
    );
  return (
    <Flex vertical align={mine ? 'flex-end' : 'flex-start'} gap={2}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {m.msgTime}
      </Typography.Text>
      <div
        style={{
          maxWidth: '80%',
          padding: '6px 10px',
          borderRadius: token.borderRadiusLG,
          background: mine ? token.colorPrimaryBg : token.colorFillSecondary,
          color: token.colorText,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
        }}
      >
        {m.content || m.msgType}
      </div>
    </Flex>
  );
}

function ReplyBox({ conversation, onSent }: { conversation: Conversation; onSent: () => Promise<void> }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const win = replyWindow(conversation, deploymentZone());
  if (!can(REPLY_CODE)) return null;
  if (!win.open || !conversation.lastReceived)
    return (
      <Alert
        type="info"
        showIcon
        title={WX_ERRORS[45015][lang]}
        description={t('wxmp.msgs.closed')}
        role="note"
      />
    );
  const send = async () => {
    if (!text.trim() || !conversation.lastReceived) return;
    setBusy(true);
    try {
      await postData(`${MSG}/reply`, { id: conversation.lastReceived.id, content: text.trim() });
      setText('');
      message.success(t('wxmp.msgs.sent'));
      await onSent();
    } catch {
      // the http client has said why (WeChat's refusal; the window closed meanwhile)
    } finally {
      setBusy(false);
    }
  };
  return (
    <Flex vertical gap={8}>
      <Typography.Text type="secondary" id="wx-reply-window">
        {t('wxmp.msgs.openUntil', {
          time: win.closesAt === undefined ? '' : formatMoment(win.closesAt),
        })}
      </Typography.Text>
      <Input.TextArea
        aria-label={t('wxmp.msgs.reply')}
        aria-describedby="wx-reply-window"
        value={text}
        maxLength={600}
        showCount
        autoSize={{ minRows: 2, maxRows: 6 }}
        onChange={(e) => setText(e.target.value)}
      />
      <Flex justify="flex-end">
        <Button type="primary" icon={<SendOutlined />} loading={busy} disabled={!text.trim()} onClick={send}>
          {t('wxmp.msgs.send')}
        </Button>
      </Flex>
    </Flex>
  );
}

function Conversations() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { accounts, accountId, setAccountId } = useWxAccounts();
  const [rows, setRows] = useState<WxMsgRow[]>([]);
  const [names, setNames] = useState<Map<string, string>>(new Map());
  const [openid, setOpenid] = useState<string>();
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const [msgs, users] = await Promise.all([
        getData<{ records: WxMsgRow[] }>(`${MSG}/page`, { current: 1, size: READ }),
        getData<{ records: Follower[] }>(`${USERS}/page`, { current: 1, size: READ }).catch(() => ({
          records: [] as Follower[],
        })),
      ]);
      setRows(msgs.records);
      setNames(new Map(users.records.map((u) => [u.openid, u.remark || u.nickname || ''])));
    } catch {
      // the http client has said what went wrong
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const list = useMemo(() => conversations(rows, accountId), [rows, accountId]);
  const chosen = list.find((c) => c.openid === openid) ?? list[0];
  const who = (id: string) => names.get(id) || id;

  return (
    <Flex vertical gap={12}>
      <Flex gap={12} align="center" wrap>
        <AccountPicker accounts={accounts} accountId={accountId} onChange={setAccountId} />
        <span style={{ flex: 1 }} />
        <Button onClick={() => load()} loading={loading}>
          {t('common.refresh')}
        </Button>
      </Flex>
      {list.length === 0 ? (
        <Empty description={t('wxmp.msgs.none')} />
      ) : (
        <Flex gap={16} align="flex-start" wrap>
          <nav aria-label={t('wxmp.msgs.followers')} style={{ flex: '0 1 280px', minWidth: 220 }}>
            <List
              size="small"
              bordered
              dataSource={list}
              renderItem={(c) => {
                const last = c.messages[c.messages.length - 1];
                const picked = c === chosen;
                return (
                  <List.Item style={{ padding: 0, background: picked ? token.colorPrimaryBg : undefined }}>
                    <Button
                      type="text"
                      aria-pressed={picked}
                      onClick={() => setOpenid(c.openid)}
                      style={{
                        width: '100%',
                        height: 'auto',
                        textAlign: 'left',
                        display: 'block',
                        padding: 8,
                      }}
                    >
                      <Typography.Text strong ellipsis style={{ display: 'block' }}>
                        {who(c.openid)}
                      </Typography.Text>
                      <Typography.Text type="secondary" ellipsis style={{ display: 'block', fontSize: 12 }}>
                        {c.latest} · {last?.content || last?.msgType}
                      </Typography.Text>
                    </Button>
                  </List.Item>
                );
              }}
            />
          </nav>
          {chosen && (
            <Card
              size="small"
              title={t('wxmp.msgs.with', { name: who(chosen.openid) })}
              style={{ flex: '1 1 360px', minWidth: 300 }}
            >
              <section aria-label={t('wxmp.msgs.with', { name: who(chosen.openid) })}>
                <Flex vertical gap={10} style={{ maxHeight: 420, overflowY: 'auto', marginBottom: 12 }}>
                  {chosen.messages.map((m) => (
                    <Bubble key={m.id} m={m} />
                  ))}
                </Flex>
              </section>
              <ReplyBox conversation={chosen} onSent={load} />
            </Card>
          )}
        </Flex>
      )}
    </Flex>
  );
}

export default function MsgPage() {
  const { t } = useTranslation();
  useSession((s) => s.permission); // re-render when grants change
  return (
    <Card variant="borderless" styles={{ body: { padding: 16 } }}>
      <Tabs
        items={[
          { key: 'conversations', label: t('wxmp.msgs.conversations'), children: <Conversations /> },
          {
            key: 'all',
            label: t('wxmp.msgs.all'),
            children: <CrudPage def={wxMsgResource} />,
          },
        ]}
      />
    </Card>
  );
}
