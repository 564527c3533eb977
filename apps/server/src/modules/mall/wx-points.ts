import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { endpoint } from '../../platform/crud/endpoints';
import { readableRows } from '../../platform/crud/refs';
import { today } from '../../platform/format';
import { ApiError } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { villager } from '../village/tables';
import { ownerKeyOf, pointsSettings } from './ledger';
import { openLot, pointsAccount, pointsRecord } from './tables';

/**
 * `villager/wx/points?villagerId=`: one villager's points for the mini program — the account's balance and
 * totals, what expires when, and the latest 20 ledger rows. Read as every read is: the villager within the
 * caller's reach of villagers (the villager screen's code), the account and its rows within the caller's
 * reach of the ledger; another tenant's villager is not found.
 */
export const wxPointsEndpoint = endpoint({
  method: 'GET',
  path: 'wx/points',
  query: z.object({ villagerId: idString }).strict(),
  async handler({ ctx, resource, scope, query }) {
    const { db } = resource;
    const [person] = await db
      .select({ id: villager.id, name: villager.name, householdNo: villager.householdNo })
      .from(villager)
      .where(and(eq(villager.id, query.villagerId), scope))
      .limit(1);
    if (!person) throw new ApiError(404, 'notFound');
    const { kind } = await pointsSettings(db, ctx.tenantId);
    const ownerKey = ownerKeyOf(kind, {
      id: String(person.id),
      householdNo: (person.householdNo as string) ?? null,
    });
    const [accounts, records] = await Promise.all([
      readableRows('pointsAccount', ctx),
      readableRows('pointsRecord', ctx),
    ]);
    const [account] = await db
      .select({
        id: pointsAccount.id,
        balance: pointsAccount.balance,
        earned: pointsAccount.earned,
        spent: pointsAccount.spent,
        expired: pointsAccount.expired,
      })
      .from(pointsAccount)
      .where(and(eq(pointsAccount.ownerKey, ownerKey), accounts))
      .limit(1);
    const base = { villagerId: String(person.id), name: person.name, accountKind: kind };
    if (!account) return { ...base, balance: 0, earned: 0, spent: 0, expired: 0, expiring: [], records: [] };
    const mine = and(eq(pointsRecord.accountId, String(account.id)), records);
    const [expiring, latest] = await Promise.all([
      db
        .select({
          expiresOn: pointsRecord.expiresOn,
          points: sql<number>`sum(${pointsRecord.remaining})::int`,
        })
        .from(pointsRecord)
        .where(and(mine, openLot, gte(pointsRecord.expiresOn, today())))
        .groupBy(pointsRecord.expiresOn)
        .orderBy(asc(pointsRecord.expiresOn))
        .limit(12),
      db
        .select(readableSelection)
        .from(pointsRecord)
        .where(mine)
        .orderBy(desc(pointsRecord.createTime), desc(pointsRecord.id))
        .limit(20),
    ]);
    return {
      ...base,
      balance: Number(account.balance),
      earned: Number(account.earned),
      spent: Number(account.spent),
      expired: Number(account.expired),
      expiring: expiring.map((e) => ({ expiresOn: String(e.expiresOn), points: Number(e.points) })),
      records: latest.map((r) => ({
        ...r,
        id: String(r.id),
        points: Number(r.points),
        balanceAfter: Number(r.balanceAfter),
      })),
    };
  },
});

const readableSelection = {
  id: pointsRecord.id,
  points: pointsRecord.points,
  eventType: pointsRecord.eventType,
  reason: pointsRecord.reason,
  balanceAfter: pointsRecord.balanceAfter,
  recordDate: pointsRecord.recordDate,
  expiresOn: pointsRecord.expiresOn,
};
