import { POINTS_EVENT } from '@smart/contracts';
import { and, eq, lt, sql, sum } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { serverActor } from '../../platform/auth/context';
import { transaction } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { today } from '../../platform/format';
import { notDeleted, rowsOf } from '../../platform/sql';
import { post } from './hooks';
import { openLot, pointsAccount, pointsRecord } from './tables';

/**
 * Points past their last day are written off: for each account holding such lots, one 积分过期 row of
 * what is left of them (its business id the account and the day: written once a day at most). However
 * many servers run, one does it: the job holds a transaction-scoped advisory lock, and a server that
 * cannot take it leaves the work to the one that has it. Until the job runs, those points are already
 * not spendable (the ledger counts them out of what may be spent).
 */

const EXPIRY_LOCK = sql`pg_try_advisory_xact_lock(hashtext('points-expiry'))`;
const HOUR = 3_600_000;

const pointsActor = (tenantId: string) => serverActor(tenantId, 'points');

/** Writes off the expired lots of every tenant; answers how many accounts it wrote off, or -1 when another server holds the job. */
export async function expirePoints(db: Db): Promise<number> {
  const day = today();
  return transaction(db, async (tx) => {
    const [got] = rowsOf(await tx.execute(sql`select ${EXPIRY_LOCK} as ok`));
    if (!(got?.ok === true || got?.ok === 't')) return -1;
    const due = await tx
      .select({
        tenantId: pointsRecord.tenantId,
        accountId: pointsRecord.accountId,
        villagerId: pointsAccount.villagerId,
        points: sum(pointsRecord.remaining),
      })
      .from(pointsRecord)
      .innerJoin(pointsAccount, eq(pointsAccount.id, pointsRecord.accountId))
      .where(and(openLot, lt(pointsRecord.expiresOn, day), notDeleted(pointsRecord.isDeleted)))
      .groupBy(pointsRecord.tenantId, pointsRecord.accountId, pointsAccount.villagerId);
    for (const d of due)
      await post(pointsActor(String(d.tenantId)), tx, [
        {
          villagerId: String(d.villagerId),
          points: -Number(d.points),
          eventType: POINTS_EVENT.expiry,
          bizId: `${String(d.accountId)}:${day}`,
          reason: '积分过期',
        },
      ]);
    return due.length;
  });
}

/**
 * The expiry job's clock: a minute after start, then hourly (a day's write-off lands within the hour the
 * day turns). A plugin of the area's routes, so it stops with the server.
 */
export const expiryJob: FastifyPluginAsync = async (app) => {
  const run = () => void expirePoints(app.deps.db).catch((err) => app.log.error({ err }, 'points expiry'));
  const first = setTimeout(run, 60_000);
  const every = setInterval(run, HOUR);
  first.unref();
  every.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(every);
  });
};
