import { WECHAT_DEMO } from '@smart/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { demoPublishing } from './demo-drafts';
import { WechatSandbox } from './server';

/**
 * The demo public account's keys: public, like the demo's admin/admin — they open nothing but the sandbox,
 * which knows them. A deployment adds its real account (or replaces these) under 公众号账号.
 */
export const DEMO_ACCOUNT = {
  appId: WECHAT_DEMO.appId,
  appSecret: 'd3m0s3cr3td3m0s3cr3td3m0s3cr3t00',
  token: 'happyvillage',
  aesKey: 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG',
} as const;

/** how many followers the demo account has in the sandbox */
export const DEMO_FOLLOWERS = 128;

/**
 * WECHAT_SANDBOX=on (`npm start`): the sandbox listens on 127.0.0.1:WECHAT_SANDBOX_PORT, knowing the demo
 * account and its followers, and the client talks to it (client.ts `wxApiBase`). A busy port is logged and
 * the server starts anyway (the WeChat actions then say WeChat cannot be reached).
 */
export const sandboxPlugin: FastifyPluginAsync = async (app) => {
  const { config } = app.deps;
  if (config.WECHAT_SANDBOX !== 'on') return;
  const sandbox = new WechatSandbox().addApp(DEMO_ACCOUNT.appId, DEMO_ACCOUNT.appSecret);
  sandbox.setFollowers(DEMO_ACCOUNT.appId, DEMO_FOLLOWERS);
  demoPublishing(sandbox);
  app.addHook('onReady', async () => {
    try {
      await sandbox.listen(config.WECHAT_SANDBOX_PORT);
      app.log.info({ url: sandbox.url }, 'WeChat sandbox listening');
    } catch (err) {
      app.log.warn({ err: (err as Error).message }, 'WeChat sandbox could not listen');
    }
  });
  app.addHook('onClose', () => sandbox.close());
};
