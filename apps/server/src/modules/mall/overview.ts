import { DEED_STATUS, EXCHANGE_STATUS, type MallOverview, POINTS_EVENT } from '@smart/contracts';
import { and, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { OverviewCall } from '../../platform/area';
import { readableRows } from '../../platform/crud/refs';
import { today } from '../../platform/format';
import { EARNING_EVENTS } from './ledger';
import { exchangeList, openLot, pointsAccount, pointsDeed, pointsRecord } from './tables';

/**
 * 积分概览: accounts and their balances, deeds to review, exchanges to collect, what expires in the next 90
 * days, and per month of the last twelve the points issued (earned) and redeemed (exchanges less refunds) —
 * each read within the caller's reach of the resource it counts.
 */

const int = (x: unknown) => Number(x ?? 0);

/** The twelve months ending with this one, YYYY-MM, oldest first. */
export function lastMonths(day: string, n = 12): string[] {
  const [y, m] = day.split('-').map(Number);
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - (n - 1 - i), 1));
    return d.toISOString().slice(0, 7);
  });
}

export async function mallOverview({ ctx, db }: OverviewCall): Promise<MallOverview> {
  const [accounts, records, deeds, exchanges] = await Promise.all([
    readableRows('pointsAccount', ctx),
    readableRows('pointsRecord', ctx),
    readableRows('pointsDeed', ctx),
    readableRows('exchangeList', ctx),
  ]);
  const day = today();
  const months = lastMonths(day);
  const in90 = new Date(Date.parse(`${day}T00:00:00Z`) + 90 * 86_400_000).toISOString().slice(0, 10);
  const month = sql<string>`to_char(${pointsRecord.recordDate}, 'YYYY-MM')`;
  const [[acc], [pending], [toCollect], [expiring], perMonth] = await Promise.all([
    db
      .select({
        n: sql<number>`count(*)::int`,
        balance: sql<number>`coalesce(sum(${pointsAccount.balance}), 0)::int`,
      })
      .from(pointsAccount)
      .where(accounts),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(pointsDeed)
      .where(and(deeds, eq(pointsDeed.reviewStatus, DEED_STATUS.pending))),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(exchangeList)
      .where(and(exchanges, eq(exchangeList.exchangeStatus, EXCHANGE_STATUS.toCollect))),
    db
      .select({ n: sql<number>`coalesce(sum(${pointsRecord.remaining}), 0)::int` })
      .from(pointsRecord)
      .where(and(records, openLot, gte(pointsRecord.expiresOn, day), lte(pointsRecord.expiresOn, in90))),
    db
      .select({
        month,
        issued: sql<number>`coalesce(sum(${pointsRecord.points}) filter (where ${inArray(pointsRecord.eventType, [...EARNING_EVENTS])} and ${pointsRecord.points} > 0), 0)::int`,
        redeemed: sql<number>`coalesce(-sum(${pointsRecord.points}) filter (where ${inArray(pointsRecord.eventType, [POINTS_EVENT.exchange, POINTS_EVENT.refund])}), 0)::int`,
      })
      .from(pointsRecord)
      .where(and(records, gte(pointsRecord.recordDate, `${months[0]}-01`)))
      .groupBy(month),
  ]);
  const byMonth = new Map(perMonth.map((r) => [String(r.month), r]));
  return {
    accounts: int(acc?.n),
    balance: int(acc?.balance),
    pending: int(pending?.n),
    toCollect: int(toCollect?.n),
    expiring: int(expiring?.n),
    months: months.map((m) => ({
      month: m,
      issued: int(byMonth.get(m)?.issued),
      redeemed: int(byMonth.get(m)?.redeemed),
    })),
  };
}
