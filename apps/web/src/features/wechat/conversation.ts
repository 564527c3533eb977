/**
 * The messages screen's reading of `wxMsg/page`, pure: the messages of one account grouped by follower into
 * conversations (the latest first, each in time order), and a server time (`2026-11-29 08:42:33`, written in
 * the deployment's zone) as a moment, for WeChat's 48-hour window (`wxReplyOpen`).
 */
import { WX_DIRECTION, WX_REPLY_WINDOW_MS, wxReplyOpen } from '@smart/contracts/wechat-rules';
import { wallTimeMs } from '../../platform/zone';

export interface WxMsgRow {
  id: string;
  accountId: string;
  openid: string;
  direction: string;
  msgType?: string | null;
  event?: string | null;
  content?: string | null;
  msgTime?: string | null;
}

export interface Conversation {
  openid: string;
  /** oldest first */
  messages: WxMsgRow[];
  /** the follower's last message to the account: what a reply answers, and when the window opened */
  lastReceived?: WxMsgRow;
  /** the time of the conversation's latest message, as the server wrote it */
  latest: string;
}

/** `YYYY-MM-DD HH:mm:ss` in `zone` as epoch milliseconds (NaN when it is no such time). */
export const serverMs = wallTimeMs;

/** The account's messages as conversations, the one with the latest message first. */
export function conversations(rows: readonly WxMsgRow[], accountId: string | undefined): Conversation[] {
  const by = new Map<string, WxMsgRow[]>();
  for (const r of rows) {
    if (accountId && String(r.accountId) !== accountId) continue;
    const list = by.get(r.openid) ?? [];
    list.push(r);
    by.set(r.openid, list);
  }
  const time = (r: WxMsgRow) => r.msgTime ?? '';
  return [...by.entries()]
    .map(([openid, list]) => {
      const messages = [...list].sort((a, b) => time(a).localeCompare(time(b)) || a.id.localeCompare(b.id));
      const received = messages.filter((m) => String(m.direction) === WX_DIRECTION.received);
      return {
        openid,
        messages,
        lastReceived: received[received.length - 1],
        latest: time(messages[messages.length - 1]),
      };
    })
    .sort((a, b) => b.latest.localeCompare(a.latest));
}

/** Whether the follower may be written to now (WeChat's 48 hours after they last wrote), and until when. */
export function replyWindow(c: Conversation | undefined, zone: string, now = Date.now()) {
  const at = c?.lastReceived ? serverMs(c.lastReceived.msgTime, zone) : Number.NaN;
  const known = Number.isFinite(at);
  return {
    open: known && wxReplyOpen(at, now),
    closesAt: known ? at + WX_REPLY_WINDOW_MS : undefined,
  };
}
