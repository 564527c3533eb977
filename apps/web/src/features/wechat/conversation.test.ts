import { describe, expect, it } from 'vitest';
import { conversations, replyWindow, serverMs, type WxMsgRow } from './conversation';

const row = (
  id: string,
  openid: string,
  direction: '1' | '2',
  msgTime: string,
  accountId = 'A',
): WxMsgRow => ({
  id,
  accountId,
  openid,
  direction,
  msgType: 'text',
  content: `m${id}`,
  msgTime,
});

describe('the messages screen’s conversations', () => {
  it('reads a server time in the deployment’s zone', () => {
    expect(serverMs('2026-11-29 08:00:00', 'Asia/Shanghai')).toBe(Date.UTC(2026, 10, 29, 0, 0, 0));
    expect(serverMs('2026-11-29 08:00:00', 'UTC')).toBe(Date.UTC(2026, 10, 29, 8, 0, 0));
    // summer time in London: an hour ahead of UTC
    expect(serverMs('2026-07-01 12:30:00', 'Europe/London')).toBe(Date.UTC(2026, 6, 1, 11, 30, 0));
    expect(serverMs('', 'UTC')).toBeNaN();
    expect(serverMs(null, 'UTC')).toBeNaN();
  });

  it('groups one account’s messages by follower, the latest conversation first, each in time order', () => {
    const list = conversations(
      [
        row('3', 'o1', '2', '2026-11-29 08:00:05'),
        row('1', 'o1', '1', '2026-11-29 08:00:00'),
        row('2', 'o2', '1', '2026-11-29 09:00:00'),
        row('4', 'o3', '1', '2026-11-29 10:00:00', 'B'),
      ],
      'A',
    );
    expect(list.map((c) => c.openid)).toEqual(['o2', 'o1']);
    expect(list[1].messages.map((m) => m.id)).toEqual(['1', '3']);
    expect(list[1].lastReceived?.id).toBe('1');
    expect(list[1].latest).toBe('2026-11-29 08:00:05');
  });

  it('offers a reply within 48 hours of the follower’s last message, never without one', () => {
    const [c] = conversations([row('1', 'o1', '1', '2026-11-27 08:00:00')], 'A');
    const wrote = Date.UTC(2026, 10, 27, 0, 0, 0);
    expect(replyWindow(c, 'Asia/Shanghai', wrote + 47 * 3_600_000).open).toBe(true);
    expect(replyWindow(c, 'Asia/Shanghai', wrote + 49 * 3_600_000)).toEqual({
      open: false,
      closesAt: wrote + 48 * 3_600_000,
    });
    const [onlyReplies] = conversations([row('2', 'o1', '2', '2026-11-29 08:00:00')], 'A');
    expect(replyWindow(onlyReplies, 'UTC').open).toBe(false);
    expect(replyWindow(undefined, 'UTC').open).toBe(false);
  });
});
