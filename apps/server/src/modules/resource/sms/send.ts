import { SMS_SOURCE, SMS_STATE, smsParamsProblem, smsRender } from '@smart/contracts';
import { and, count, eq, gte, isNull, lt, or, sql } from 'drizzle-orm';
import { type RequestContext, serverActor } from '../../../platform/auth/context';
import type { Config } from '../../../platform/config';
import type { MountedResource, Row } from '../../../platform/crud/binding';
import { mountedResource } from '../../../platform/crud/refs';
import { insertRows, liveRows, transaction } from '../../../platform/crud/write';
import type { Db } from '../../../platform/db';
import { formatDateTime } from '../../../platform/format';
import { FieldInputError, TextError } from '../../../platform/http/errors';
import { addMissingParams } from '../../../seed/insert';
import { tenantParams } from '../../system/params';
import { type SmsAccount, type SmsOutcome, SmsProviderError, type SmsReach, smsProvider } from './providers';

/**
 * Sending a message, whoever asks (a person's `endpoint/send-message`, a device alarm):
 * 1. The template's params are checked first: a missing, unknown or too long one is refused before any
 *    provider is called.
 * 2. Under the tenant's SMS lock, the rate limits are counted on the log (per phone a minute and a day, per
 *    tenant a day; system parameters), and one log row per phone is written, 已提交, through the write path.
 * 3. The provider is called; each phone's row becomes 已发送 with the provider's message id, or 发送失败
 *    with its code and message. Receipts move it on (receipts.ts).
 * An alarm's message is written in the alarm's transaction and sent once that commits (the outbox below),
 * so a rolled-back alarm texts nobody and a crash loses no message.
 */

export const SMS_LIMITS = {
  params: {
    perPhoneMinute: 'sms.limit.phone.minute',
    perPhoneDay: 'sms.limit.phone.day',
    perTenantDay: 'sms.limit.tenant.day',
  },
  defaults: { perPhoneMinute: 1, perPhoneDay: 10, perTenantDay: 1000 },
} as const;

const smsLog = () => mountedResource('smsLog');
const MINUTE = 60_000;
const DAY = 86_400_000;
/** how long a claim of the outbox's holds before another server may take the message again */
const CLAIM_MS = 5 * MINUTE;

/** A config row as the provider clients take it. */
export function accountOf(row: Row): SmsAccount {
  const s = (k: string) => (row[k] === null || row[k] === undefined ? null : String(row[k]));
  return {
    category: String(row.category),
    accessKey: s('accessKey') ?? '',
    secretKey: s('secretKey') ?? '',
    appId: s('appId'),
    regionId: s('regionId'),
    endpoint: s('endpoint'),
    templateId: String(row.templateId),
    templateContent: String(row.templateContent),
    signName: String(row.signName),
  };
}

/** The refusal of params that do not fit the config's template (400, before any provider call). */
export function checkParams(row: Row, params: Record<string, string>) {
  const problem = smsParamsProblem(String(row.templateContent), params);
  if (problem) throw new FieldInputError('params', problem);
}

/** Which of these phones may be texted now under the tenant's limits; the rest with the limit they hit. */
async function withinLimits(
  tx: Db,
  m: MountedResource,
  tenantId: string,
  phones: string[],
): Promise<{
  allowed: string[];
  refused: { phone: string; limit: keyof typeof SMS_LIMITS.params; max: number }[];
}> {
  const p = SMS_LIMITS.params;
  const d = SMS_LIMITS.defaults;
  const v = await tenantParams(tx, tenantId, {
    [p.perPhoneMinute]: String(d.perPhoneMinute),
    [p.perPhoneDay]: String(d.perPhoneDay),
    [p.perTenantDay]: String(d.perTenantDay),
  });
  const max = (k: keyof typeof p) => {
    const n = Number(v[p[k]]);
    return Number.isFinite(n) && n >= 0 ? n : d[k];
  };
  const now = Date.now();
  const counted = (since: number, phone?: string) =>
    tx
      .select({ n: count() })
      .from(m.table)
      .where(
        and(
          eq(m.cols.tenantId, tenantId),
          gte(m.cols.createTime, new Date(now - since)),
          phone ? eq(m.cols.phone, phone) : undefined,
          // refused by a limit: never sent, so not counted against the next
          sql`coalesce(${m.cols.errorCode}, '') <> 'RateLimited'`,
        ),
      )
      .then((r) => Number(r[0]?.n ?? 0));
  let tenantLeft = max('perTenantDay') - (await counted(DAY));
  const allowed: string[] = [];
  const refused: { phone: string; limit: keyof typeof p; max: number }[] = [];
  for (const phone of phones) {
    if ((await counted(MINUTE, phone)) >= max('perPhoneMinute'))
      refused.push({ phone, limit: 'perPhoneMinute', max: max('perPhoneMinute') });
    else if ((await counted(DAY, phone)) >= max('perPhoneDay'))
      refused.push({ phone, limit: 'perPhoneDay', max: max('perPhoneDay') });
    else if (tenantLeft <= 0) refused.push({ phone, limit: 'perTenantDay', max: max('perTenantDay') });
    else {
      allowed.push(phone);
      tenantLeft--;
    }
  }
  return { allowed, refused };
}

const LIMIT_TEXT = {
  perPhoneMinute: (n: number) => ({
    zh: `同一手机号每分钟最多 ${n} 条`,
    en: `at most ${n} a minute to one phone`,
  }),
  perPhoneDay: (n: number) => ({ zh: `同一手机号每天最多 ${n} 条`, en: `at most ${n} a day to one phone` }),
  perTenantDay: (n: number) => ({ zh: `每个租户每天最多 ${n} 条`, en: `at most ${n} a day for the tenant` }),
};

/** Writes the log rows of a message under the tenant's lock and limits: the ids of those to send. */
async function writeLog(
  tx: Db,
  ctx: RequestContext,
  config: Row,
  phones: string[],
  params: Record<string, string>,
  source: string,
  whenLimited: 'refuse' | 'log',
): Promise<{ id: string; phone: string }[]> {
  const m = smsLog();
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`app_sms_log:${ctx.tenantId}`}))`);
  const { allowed, refused } = await withinLimits(tx, m, ctx.tenantId, phones);
  if (refused.length && whenLimited === 'refuse') {
    const r = refused[0];
    const t = LIMIT_TEXT[r.limit](r.max);
    throw new TextError(
      429,
      {
        zh: `发送过于频繁:${r.phone} 已达上限(${t.zh})`,
        en: `Too many messages: ${r.phone} reached the limit (${t.en})`,
      },
      { phone: r.phone, limit: r.limit },
    );
  }
  const content = `【${config.signName}】${smsRender(String(config.templateContent), params)}`.slice(0, 600);
  const base = { smsId: String(config.id), source, content, params: JSON.stringify(params).slice(0, 1000) };
  const written = await insertRows(
    m,
    ctx,
    tx,
    [
      ...allowed.map((phone) => ({ ...base, phone, state: SMS_STATE.submitted })),
      ...refused.map((r) => ({
        ...base,
        phone: r.phone,
        state: SMS_STATE.failed,
        errorCode: 'RateLimited',
        errorMessage: LIMIT_TEXT[r.limit](r.max).zh,
      })),
    ],
    { answer: true },
  );
  return written
    .filter((w) => w.row.state === SMS_STATE.submitted)
    .map((w) => ({ id: String(w.row.id), phone: String(w.row.phone) }));
}

/** Calls the provider for these rows of one config and writes what it answered into each. */
async function deliver(
  db: Db,
  ctx: RequestContext,
  config: Row,
  rows: { id: string; phone: string }[],
  params: Record<string, string>,
  receiptUrl: string,
  reach: SmsReach,
): Promise<{ outcome: SmsOutcome | null; error: SmsProviderError | null }> {
  const m = smsLog();
  let outcome: SmsOutcome | null = null;
  let error: SmsProviderError | null = null;
  try {
    outcome = await smsProvider(String(config.category)).send(
      accountOf(config),
      rows.map((r) => r.phone),
      params,
      receiptUrl,
      reach,
    );
  } catch (e) {
    error = e instanceof SmsProviderError ? e : new SmsProviderError('Error', (e as Error).message, null);
  }
  const at = formatDateTime(new Date());
  await transaction(db, async (tx) => {
    const scope = await m.tenantConstraint(ctx);
    for (const r of rows) {
      const o = outcome?.phones.find((p) => p.phone === r.phone);
      const set =
        o?.ok === true
          ? {
              state: SMS_STATE.sent,
              messageId: o.messageId,
              requestId: outcome?.requestId ?? null,
              sentAt: at,
            }
          : {
              state: SMS_STATE.failed,
              requestId: outcome?.requestId ?? error?.requestId ?? null,
              errorCode: (o?.code ?? error?.code ?? 'Error').slice(0, 64),
              errorMessage: (o?.message ?? error?.message ?? '').slice(0, 255),
            };
      await m.patch(ctx, tx, r.id, set, scope);
    }
  });
  return { outcome, error };
}

/** What `endpoint/send-message` answers: the provider's request id and each phone's outcome. */
export interface SendAnswer {
  requestId: string | null;
  messages: {
    id: string;
    phone: string;
    state: string;
    messageId: string | null;
    code: string | null;
    message: string | null;
  }[];
}

/** A person's send: params checked, limits refused (429), the provider's refusal of every phone a 502 with its code. */
export async function sendNow(
  db: Db,
  ctx: RequestContext,
  config: Row,
  phones: string[],
  params: Record<string, string>,
  receiptUrl: string,
  reach: SmsReach,
): Promise<SendAnswer> {
  checkParams(config, params);
  const rows = await transaction(db, (tx) =>
    writeLog(tx, ctx, config, phones, params, SMS_SOURCE.manual, 'refuse'),
  );
  const { outcome, error } = await deliver(db, ctx, config, rows, params, receiptUrl, reach);
  const messages = rows.map((r) => {
    const o = outcome?.phones.find((p) => p.phone === r.phone);
    return {
      id: r.id,
      phone: r.phone,
      state: o?.ok ? SMS_STATE.sent : SMS_STATE.failed,
      messageId: o?.messageId ?? null,
      code: o?.ok ? null : (o?.code ?? error?.code ?? null),
      message: o?.ok ? null : (o?.message ?? error?.message ?? null),
    };
  });
  if (!messages.some((x) => x.state === SMS_STATE.sent)) {
    const code = messages[0]?.code ?? error?.code ?? 'Error';
    const message = messages[0]?.message ?? error?.message ?? '';
    throw new TextError(
      502,
      {
        zh: `短信服务商拒绝发送:${code} ${message}`,
        en: `The SMS provider refused the message: ${code} ${message}`,
      },
      { code, requestId: outcome?.requestId ?? error?.requestId ?? null, status: error?.status ?? null },
    );
  }
  return { requestId: outcome?.requestId ?? null, messages };
}

/** The tenant's enabled SMS config, if it has one. */
export async function enabledConfig(tx: Db, tenantId: string): Promise<Row | null> {
  const m = mountedResource('sms');
  const [row] = await tx
    .select()
    .from(m.table)
    .where(and(eq(m.cols.tenantId, tenantId), eq(m.cols.enabled, 1), ...liveRows(m)))
    .limit(1);
  return (row as Row | undefined) ?? null;
}

/**
 * An alarm's message to a person, written in the alarm's transaction (the outbox): nothing when the tenant
 * has no enabled config; 发送失败 at once when the template wants a param an alarm does not have.
 */
export async function queueSms(tx: Db, tenantId: string, phone: string, params: Record<string, string>) {
  const config = await enabledConfig(tx, tenantId);
  if (!config) return;
  const ctx = serverActor(tenantId, 'sms');
  const wanted = Object.fromEntries(
    Object.entries(params).filter(([k]) => String(config.templateContent).includes(`{${k}}`)),
  );
  const problem = smsParamsProblem(String(config.templateContent), wanted);
  if (problem) {
    await insertRows(smsLog(), ctx, tx, [
      {
        smsId: String(config.id),
        source: SMS_SOURCE.alarm,
        phone,
        state: SMS_STATE.failed,
        content: String(config.templateContent).slice(0, 600),
        params: JSON.stringify(wanted),
        errorCode: 'TemplateParams',
        errorMessage: problem.zh,
      },
    ]);
    return;
  }
  await writeLog(tx, ctx, config, [phone], wanted, SMS_SOURCE.alarm, 'log');
}

/**
 * The outbox's sender: alarms' messages still 已提交, a few at a time. Each is claimed first in a short
 * transaction (`skip locked`, and `claimedAt` written: several servers never send one twice, and a claim
 * a crashed server left is taken again after five minutes), then sent outside any transaction.
 */
export async function sendQueued(
  db: Db,
  receiptUrlOf: (configId: string, key: string) => string,
  reach: SmsReach,
): Promise<number> {
  const m = smsLog();
  const configs = mountedResource('sms');
  const now = new Date();
  const claimed = await transaction(db, async (tx) => {
    const due = await tx
      .select({
        id: m.cols.id,
        tenantId: m.cols.tenantId,
        smsId: m.cols.smsId,
        phone: m.cols.phone,
        params: m.cols.params,
      })
      .from(m.table)
      .where(
        and(
          eq(m.cols.state, SMS_STATE.submitted),
          eq(m.cols.source, SMS_SOURCE.alarm),
          gte(m.cols.createTime, new Date(now.getTime() - DAY)),
          or(isNull(m.cols.claimedAt), lt(m.cols.claimedAt, new Date(now.getTime() - CLAIM_MS))),
          ...liveRows(m),
        ),
      )
      .limit(20)
      .for('update', { skipLocked: true });
    for (const r of due) {
      const actor = serverActor(String(r.tenantId), 'sms');
      await m.patch(
        actor,
        tx,
        String(r.id),
        { claimedAt: formatDateTime(now) },
        await m.tenantConstraint(actor),
      );
    }
    return due;
  });
  for (const r of claimed) {
    const [config] = await db
      .select()
      .from(configs.table)
      .where(eq(configs.cols.id, r.smsId as string))
      .limit(1);
    if (!config) continue;
    const row = config as Row;
    const params = JSON.parse(String(r.params ?? '{}')) as Record<string, string>;
    await deliver(
      db,
      serverActor(String(r.tenantId), 'sms'),
      row,
      [{ id: String(r.id), phone: String(r.phone) }],
      params,
      receiptUrlOf(String(row.id), String(row.receiptKey ?? '')),
      reach,
    );
  }
  return claimed.length;
}

/** The rate limits on the parameter screen (installs seeded before them get them too). */
export async function seedSmsLimits(db: Db) {
  const { params, defaults } = SMS_LIMITS;
  await addMissingParams(db, [
    {
      paramName: '短信频率:每手机号每分钟',
      paramKey: params.perPhoneMinute,
      paramValue: String(defaults.perPhoneMinute),
      remark: `同一手机号每分钟最多发送的短信条数;${params.perPhoneMinute}.<租户ID> 可为单个租户另设`,
    },
    {
      paramName: '短信频率:每手机号每天',
      paramKey: params.perPhoneDay,
      paramValue: String(defaults.perPhoneDay),
      remark: `同一手机号 24 小时内最多发送的短信条数;${params.perPhoneDay}.<租户ID> 可为单个租户另设`,
    },
    {
      paramName: '短信频率:每租户每天',
      paramKey: params.perTenantDay,
      paramValue: String(defaults.perTenantDay),
      remark: `每个租户 24 小时内最多发送的短信条数;${params.perTenantDay}.<租户ID> 可为单个租户另设`,
    },
  ]);
}

/**
 * The origins a send may reach inside the server's own network whatever SMS_ENDPOINT_HOSTS says: the SMS
 * sandbox this server runs (receipts.ts adds it once it listens).
 */
export const SANDBOX_ORIGINS = new Set<string>();

/** Where this server's sends may go (config SMS_ENDPOINT_HOSTS, and its own sandbox). */
export const smsReach = (config: Pick<Config, 'SMS_ENDPOINT_HOSTS'>): SmsReach => ({
  hosts: config.SMS_ENDPOINT_HOSTS,
  allowed: [...SANDBOX_ORIGINS],
});
