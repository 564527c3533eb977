import { timingSafeEqual } from 'node:crypto';
import { SMS_DEMO, SMS_STATE } from '@smart/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { serverActor } from '../../../platform/auth/context';
import type { Row } from '../../../platform/crud/binding';
import { mountedResource } from '../../../platform/crud/refs';
import { liveRows, transaction } from '../../../platform/crud/write';
import { formatDateTime } from '../../../platform/format';
import { ApiError } from '../../../platform/http/errors';
import { runPeriodically } from '../../../platform/periodic';
import { publicBase, receiptPath } from './binding';
import { smsProvider } from './providers';
import { SmsSandbox } from './sandbox';
import { SANDBOX_ORIGINS, sendQueued, smsReach } from './send';

/**
 * What reaches the SMS configs from outside, and what runs beside them:
 * - **Delivery receipts**, `POST /api/dfem-resource/sms/receipt/{configId}/{receiptKey}`, without a token:
 *   the providers post there (the address is shown with the config, to be pasted into the provider's
 *   console; Huawei's is sent with each message). The key must be the config's (else 404, nothing said
 *   about why); the body is read in the provider's own format; each receipt moves the log row of that
 *   config, message id and phone from 已提交/已发送 to 已送达 or 发送失败 (with the provider's code), through
 *   the write path as the config's tenant. A receipt of no known message changes nothing; the provider is
 *   answered as it expects either way (else it posts again).
 * - **The outbox** of alarms' messages, sent every SMS_OUTBOX_INTERVAL_MS by each server (send.ts).
 * - **The SMS sandbox** when SMS_SANDBOX=on (`npm start`): the demo config's provider, its receipts
 *   posted back here.
 */

const sameKey = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The demo config's secret, public like the demo's admin password: it opens nothing but the sandbox. */
export const DEMO_SMS_SECRET = 'd3m0SmsS3cr3tForTheSandbox0001';

export const smsRoutes: FastifyPluginAsync = async (app) => {
  const { db, config } = app.deps;
  // receipts arrive as JSON or forms, each read as text here (this plugin's scope) and parsed by its provider
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_req, body, done) =>
    done(null, body),
  );

  app.post<{ Params: { configId: string; key: string } }>(
    '/sms/receipt/:configId/:key',
    { config: { public: true } },
    async (req, reply) => {
      const { configId, key } = req.params;
      if (!/^\d{1,19}$/.test(configId) || !/^[A-Za-z0-9_-]{32}$/.test(key))
        throw new ApiError(404, 'notFound');
      const configs = mountedResource('sms');
      const [row] = await db
        .select()
        .from(configs.table)
        .where(and(eq(configs.cols.id, configId), ...liveRows(configs)))
        .limit(1);
      const cfg = row as Row | undefined;
      if (!cfg || !sameKey(String(cfg.receiptKey ?? ''), key)) throw new ApiError(404, 'notFound');
      const provider = smsProvider(String(cfg.category));
      const receipts = provider.receipts({
        contentType: String(req.headers['content-type'] ?? ''),
        body: typeof req.body === 'string' ? req.body : '',
      });
      const log = mountedResource('smsLog');
      const ctx = serverActor(String(cfg.tenantId), 'sms');
      const at = formatDateTime(new Date());
      let moved = 0;
      let unknown = 0;
      await transaction(db, async (tx) => {
        const scope = await log.tenantConstraint(ctx);
        for (const r of receipts.filter((x) => x.messageId)) {
          const rows = await tx
            .select({ id: log.cols.id, phone: log.cols.phone, state: log.cols.state })
            .from(log.table)
            .where(and(scope, eq(log.cols.smsId, configId), eq(log.cols.messageId, r.messageId)));
          // a receipt can overtake the send it reports on: the provider answered, and its receipt came back
          // before the message id was written on the log. Told to try later, the provider posts it again.
          if (rows.length === 0) unknown++;
          const open = rows.filter((y) => y.state === SMS_STATE.submitted || y.state === SMS_STATE.sent);
          for (const x of open.filter((y) => !r.phone || r.phone.endsWith(String(y.phone)))) {
            await log.patch(
              ctx,
              tx,
              String(x.id),
              r.delivered
                ? { state: SMS_STATE.delivered, deliveredAt: at }
                : {
                    state: SMS_STATE.failed,
                    errorCode: (r.code ?? 'Undelivered').slice(0, 64),
                    errorMessage: (r.message ?? '').slice(0, 255),
                  },
              scope,
            );
            moved++;
          }
        }
      });
      req.log.info({ configId, receipts: receipts.length, moved, unknown }, 'sms receipts');
      // every provider posts a receipt again when it is not answered 2xx
      if (unknown)
        return reply.code(503).header('retry-after', '1').send({ code: 503, msg: 'unknown message' });
      return reply.type(provider.receiptAnswer.type).send(provider.receiptAnswer.body);
    },
  );

  const receiptUrlOf = (id: string, key: string) => `${publicBase(config)}${receiptPath(id, key)}`;
  const outbox = { stop: async () => {} };
  app.addHook('onReady', async () => {
    outbox.stop = runPeriodically(
      'sms outbox',
      config.SMS_OUTBOX_INTERVAL_MS,
      () => sendQueued(db, receiptUrlOf, smsReach(config)),
      app.log,
    ).stop;
  });
  app.addHook('onClose', () => outbox.stop());

  if (config.SMS_SANDBOX !== 'on') return;
  const sandbox = new SmsSandbox().addTemplate(SMS_DEMO.templateId, SMS_DEMO.template);
  app.addHook('onReady', async () => {
    try {
      await sandbox.listen(config.SMS_SANDBOX_PORT);
      SANDBOX_ORIGINS.add(sandbox.url);
      app.log.info({ url: sandbox.url }, 'SMS sandbox listening');
    } catch (err) {
      app.log.warn({ err: (err as Error).message }, 'SMS sandbox could not listen');
      return;
    }
    // the demo config's provider account, and where it posts receipts: what an operator types into the
    // provider's console
    const configs = mountedResource('sms');
    const [demo] = await db
      .select()
      .from(configs.table)
      .where(eq(configs.cols.id, SMS_DEMO.configId))
      .limit(1);
    if (!demo) return;
    const d = demo as Row;
    // the demo config names the sandbox's default address: a sandbox on another port (the browser
    // tests') is where the demo's provider now is
    if (String(d.endpoint ?? '').startsWith('http://127.0.0.1:') && d.endpoint !== sandbox.url) {
      const ctx = serverActor(String(d.tenantId), 'sms');
      await transaction(db, async (tx) =>
        configs.patch(
          ctx,
          tx,
          SMS_DEMO.configId,
          { endpoint: sandbox.url },
          await configs.tenantConstraint(ctx),
        ),
      );
    }
    sandbox.addAccount(String(d.category), SMS_DEMO.accessKey, DEMO_SMS_SECRET);
    sandbox.setReceiptUrl(SMS_DEMO.accessKey, receiptUrlOf(SMS_DEMO.configId, String(d.receiptKey)));
  });
  app.addHook('onClose', async () => {
    SANDBOX_ORIGINS.delete(sandbox.url);
    await sandbox.close();
  });
};
