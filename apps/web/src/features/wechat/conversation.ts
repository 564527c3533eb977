/**
 * The messages screen's reading of `wxMsg/page`, pure: the messages of one account grouped by follower into
 * conversations (the latest first, each in time order), and a server time (`2026-11-29 08:42:33`, written in
 * the deployment's zone) as a moment, for WeChat's 48-hour window (`wxReplyOpen`).
 */
import { WX_DIRECTION, WX_REPLY_WINDOW_MS, wxReplyOpen } from '@smart/contracts/wechat-rules';

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
export function serverMs(text: string | null | undefined, zone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(text ?? '');
  if (!m) return Number.NaN;
  const asUtc = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0));
  // the zone's offset at that moment (twice: a guess near a change of offset settles on the second pass)
  let at = asUtc;
  for (let k = 0; k < 2; k++) at = asUtc - offsetOf(zone, at);
  return at;
}

function offsetOf(zone: string, ms: number): number {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p: Record<string, number> = {};
  for (const { type, value } of f.formatToParts(ms)) p[type] = Number(value);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

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
