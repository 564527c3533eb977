import { WECHAT_DEMO, WX_MATCH, WX_REPLY_KIND } from '@smart/contracts';
import type { Db } from '../../platform/db';
import { insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { DEMO_ACCOUNT } from './sandbox/demo';
import { wxAccount, wxAutoReply } from './tables';

/**
 * Step `wechat-mp-v1`: the demo village's public account (tenant 000000) — keys the sandbox knows, so under
 * `npm start` its menu, followers and replies work at once — and three auto-replies: on subscribe, by
 * keyword (partial match) and the default.
 */
export async function seedWechatMp(db: Db) {
  const base = { tenantId: '000000', createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  await insertAll(db, wxAccount, [
    {
      ...base,
      id: WECHAT_DEMO.accountId,
      name: '幸福村公众号',
      ...DEMO_ACCOUNT,
      remark: '演示账号:npm start 时连接内置的微信沙箱',
    },
  ]);
  const [subscribe, keyword, fallback] = WECHAT_DEMO.replyIds;
  await insertAll(db, wxAutoReply, [
    {
      ...base,
      id: subscribe,
      accountId: WECHAT_DEMO.accountId,
      kind: WX_REPLY_KIND.subscribe,
      replyContent: '欢迎关注幸福村公众号!回复“办事”查看便民服务指南。',
      enabled: 1,
    },
    {
      ...base,
      id: keyword,
      accountId: WECHAT_DEMO.accountId,
      kind: WX_REPLY_KIND.keyword,
      keywords: '办事,便民服务',
      matchMode: WX_MATCH.partial,
      replyContent: '便民服务大厅工作时间:工作日 8:30—17:30,电话 0731-84561234。',
      enabled: 1,
    },
    {
      ...base,
      id: fallback,
      accountId: WECHAT_DEMO.accountId,
      kind: WX_REPLY_KIND.default,
      replyContent: '您的留言已收到,村委会将尽快回复。',
      enabled: 1,
    },
  ]);
}
