import {
  POINTS_EVENT,
  POINTS_PARAM,
  type PointsExpiry,
  parsePointsExpiry,
  pointsExpireOn,
  pointsRecordResource,
} from '@smart/contracts';
import { and, asc, eq, gt, gte, inArray, sql, sum } from 'drizzle-orm';
import type { RequestContext } from '../../platform/auth/context';
import { type Db, schema } from '../../platform/db';
import { today } from '../../platform/format';
import { ApiError, badRequest } from '../../platform/http/errors';
import { notDeleted, unnestOf } from '../../platform/sql';
import { tenantParams } from '../system/params';
import { villager } from '../village/tables';
import { openLot, pointsAccount, pointsRecord, pointsRule } from './tables';

/**
 * The points ledger's one path. Every row of `pointsRecord` — a cadre's grant, an imported batch, an
 * approved deed, a completed task, a village score, an exchange and its refund, an expiry, a reversal — is
 * prepared here, inside the write's transaction, before the write path inserts it (the binding's
 * `beforeCreate`; the seed's migration of older village scores calls it the same way):
 *
 * - its account is the villager's or the household's (the tenant's `points.accountKind`), created on first
 *   use and locked (`for update`) for the rest of the transaction: two writers of one account queue, so the
 *   balance each checks is the one it writes (no points spent twice);
 * - a business event (`eventType` + `bizId`) is credited once: a second is dropped (and the unique key of
 *   the two is the last guard);
 * - a rule's points are credited only while it is on and in effect, within its daily and monthly caps;
 * - the balance never goes below zero: a deduction larger than it is refused (`pointsShort`), or, for the
 *   village's penalties and their reversals (`floorAtZero`), takes what is there and says so in its reason;
 * - a credit is a lot with its expiry day (the tenant's `points.expiry`) and what is left of it; a debit
 *   spends the lots that expire first, then the oldest (an expiry spends exactly the expired ones);
 * - the account's balance and totals are written once for the batch.
 */

/** What a caller hands the ledger (the record's other fields are derived here). */
export interface LedgerEntry {
  villagerId: string;
  /** + earned, − spent or deducted; never 0 */
  points: number;
  eventType: string;
  reason: string;
  ruleId?: string | null;
  bizId?: string | null;
  /** the day of the change (default today): an older village score migrated keeps its own */
  recordDate?: string;
  /** a deduction larger than the balance takes the balance (never below zero), said in the reason */
  floorAtZero?: boolean;
  /** the business id was drawn for this entry (an exchange's new row): it cannot have been posted before */
  fresh?: boolean;
}

/** Events that count as earned (deductions of them included): the village ranking and `earned` add them. */
export const EARNING_EVENTS: readonly string[] = [
  POINTS_EVENT.deed,
  POINTS_EVENT.task,
  POINTS_EVENT.evaluation,
  POINTS_EVENT.manual,
  POINTS_EVENT.import,
  POINTS_EVENT.village,
];

export const pointsShort = (balance: number) => new ApiError(409, 'pointsShort', { balance });

/** The tenant's points settings: accounts per villager or household, and when points expire. */
export async function pointsSettings(
  db: Db,
  tenantId: string,
): Promise<{ kind: 'villager' | 'household'; expiry: PointsExpiry }> {
  const p = await tenantParams(db, tenantId, {
    [POINTS_PARAM.accountKind]: 'household',
    [POINTS_PARAM.expiry]: 'none',
  });
  return {
    kind: p[POINTS_PARAM.accountKind] === 'villager' ? 'villager' : 'household',
    expiry: parsePointsExpiry(p[POINTS_PARAM.expiry]),
  };
}

/** The account key of a villager: `V<id>`, or `H<householdNo>` where the tenant keeps household accounts. */
export const ownerKeyOf = (kind: 'villager' | 'household', v: { id: string; householdNo: string | null }) =>
  kind === 'household' && v.householdNo ? `H${v.householdNo}` : `V${v.id}`;

interface Person {
  id: string;
  householdNo: string | null;
  villageGroup: string | null;
  relation?: string | null;
}

interface Account {
  id: string;
  balance: number;
  earned: number;
  spent: number;
  expired: number;
}

/** A credit still to be inserted in this batch: a later debit of the batch may spend it. */
interface PendingLot {
  accountId: string;
  record: Record<string, unknown>;
}

/**
 * Prepares ledger records in place, inside `tx`: drops the ones already credited (answers the kept ones,
 * the array itself is left with them) and fills account, balance after, lot, expiry, day and who.
 */
export async function prepareLedger(
  tx: Db,
  ctx: Pick<RequestContext, 'tenantId' | 'userId'>,
  records: Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  if (!records.length) return records;
  const tenantId = ctx.tenantId;
  const day = today();
  const { kind, expiry } = await pointsSettings(tx, tenantId);
  const operator = await operatorName(tx, ctx.userId);

  // the villagers, and (household accounts) each household's head
  const villagerIds = [...new Set(records.map((r) => String(r.villagerId)))];
  const people = (await tx
    .select({
      id: villager.id,
      householdNo: villager.householdNo,
      villageGroup: villager.villageGroup,
      relation: villager.relation,
    })
    .from(villager)
    .where(
      and(inArray(villager.id, villagerIds), eq(villager.tenantId, tenantId), notDeleted(villager.isDeleted)),
    )) as Person[];
  const person = new Map(people.map((p) => [p.id, p]));
  for (const id of villagerIds)
    if (!person.has(id)) throw badRequest('fieldInvalid', { field: 'villagerId' });
  const keyOf = (id: string) => ownerKeyOf(kind, person.get(id)!);
  const keys = [...new Set(villagerIds.map(keyOf))].sort();
  // accounts: locked in key order (two batches never wait on each other crosswise); the ones missing are
  // created first (on first use), then all are locked
  const lock = async () =>
    (await tx
      .select({
        id: pointsAccount.id,
        ownerKey: pointsAccount.ownerKey,
        balance: pointsAccount.balance,
        earned: pointsAccount.earned,
        spent: pointsAccount.spent,
        expired: pointsAccount.expired,
      })
      .from(pointsAccount)
      .where(
        and(
          inArray(pointsAccount.ownerKey, keys),
          eq(pointsAccount.tenantId, tenantId),
          notDeleted(pointsAccount.isDeleted),
        ),
      )
      .orderBy(asc(pointsAccount.ownerKey))
      .for('update')) as (Account & { ownerKey: string })[];
  let locked = await lock();
  if (locked.length < keys.length) {
    const have = new Set(locked.map((a) => a.ownerKey));
    await openAccounts(
      tx,
      ctx,
      kind,
      keys.filter((k) => !have.has(k)),
      people,
      keyOf,
    );
    locked = await lock();
  }
  const accounts = new Map(
    locked.map((a) => [
      a.ownerKey,
      {
        id: a.id,
        balance: Number(a.balance),
        earned: Number(a.earned),
        spent: Number(a.spent),
        expired: Number(a.expired),
      },
    ]),
  );

  // the open lots of the accounts the batch debits, read once and spent here in memory; what is taken from
  // each lot and each account's new figures are then written in one statement each
  const debited = new Set<string>();
  for (const r of records)
    if (Number(r.points) < 0) debited.add(accounts.get(keyOf(String(r.villagerId)))!.id);
  const lotsByAccount = await openLots(tx, tenantId, [...debited]);
  const taken = new Map<string, number>();

  const kept: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  const pending: PendingLot[] = [];
  for (const r of records) {
    const eventType = String(r.eventType);
    const bizId = r.bizId === undefined || r.bizId === null || r.bizId === '' ? null : String(r.bizId);
    // a business event is credited once
    if (bizId) {
      const key = `${eventType}|${bizId}`;
      if (seen.has(key) || (!r.fresh && (await alreadyPosted(tx, tenantId, eventType, bizId)))) continue;
      seen.add(key);
    }
    const account = accounts.get(keyOf(String(r.villagerId)))!;
    let points = Math.trunc(Number(r.points));
    if (!Number.isFinite(points) || points === 0) throw badRequest('fieldInvalid', { field: 'points' });
    const recordDate = typeof r.recordDate === 'string' && r.recordDate ? r.recordDate : day;
    if (r.ruleId && points > 0 && RULED.has(eventType))
      await checkRule(tx, tenantId, String(r.ruleId), account.id, points, recordDate);

    let reason = String(r.reason ?? '');
    // what a debit may spend is the balance less the lots past their day that the expiry job has not yet
    // written off; it then spends from the live ones
    const lots = points < 0 ? spendOrder(lotsByAccount.get(account.id) ?? [], eventType, bizId) : [];
    const spendable =
      points < 0 && eventType !== POINTS_EVENT.expiry
        ? account.balance - lots.filter((l) => isPast(l, day)).reduce((t, l) => t + l.remaining, 0)
        : account.balance;
    if (points < 0 && spendable + points < 0) {
      if (!r.floorAtZero) throw pointsShort(spendable);
      const asked = -points;
      points = -spendable;
      reason = `${reason}(余额不足,实扣 ${-points} 分,应扣 ${asked} 分)`.slice(0, 200);
      if (points === 0) continue;
    }
    if (points < 0)
      spend(
        lots.filter((l) => (eventType === POINTS_EVENT.expiry ? isPast(l, day) : !isPast(l, day))),
        -points,
        eventType === POINTS_EVENT.expiry ? [] : pending.filter((l) => l.accountId === account.id),
        taken,
      );

    account.balance += points;
    const counted = await countedAs(tx, tenantId, eventType, bizId);
    if (EARNING_EVENTS.includes(counted)) account.earned += points;
    else if (counted === POINTS_EVENT.exchange || counted === POINTS_EVENT.refund) account.spent -= points;
    else if (counted === POINTS_EVENT.expiry) account.expired -= points;

    Object.assign(r, {
      points,
      reason,
      eventType,
      bizId,
      accountId: account.id,
      balanceAfter: account.balance,
      recordDate,
      operatorName: operator,
      remaining: points > 0 ? points : 0,
      expiresOn: points > 0 ? pointsExpireOn(recordDate, expiry) : null,
    });
    delete r.floorAtZero;
    delete r.fresh;
    if (points > 0) pending.push({ accountId: account.id, record: r });
    kept.push(r);
  }
  records.splice(0, records.length, ...kept);

  if (taken.size)
    await tx.execute(sql`update ${pointsRecord} set ${sql.identifier(pointsRecord.remaining.name)} =
      ${pointsRecord.remaining} - v.take
      from ${unnestOf([
        [[...taken.keys()], 'bigint'],
        [[...taken.values()], 'integer'],
      ])} as v(id, take) where ${pointsRecord.id} = v.id`);
  const figures = [...accounts.values()];
  await tx.execute(sql`update ${pointsAccount} set
      ${sql.identifier(pointsAccount.balance.name)} = v.balance,
      ${sql.identifier(pointsAccount.earned.name)} = v.earned,
      ${sql.identifier(pointsAccount.spent.name)} = v.spent,
      ${sql.identifier(pointsAccount.expired.name)} = v.expired,
      ${sql.identifier(pointsAccount.updateTime.name)} = ${new Date()}
    from ${unnestOf([
      [figures.map((a) => a.id), 'bigint'],
      [figures.map((a) => a.balance), 'integer'],
      [figures.map((a) => a.earned), 'integer'],
      [figures.map((a) => a.spent), 'integer'],
      [figures.map((a) => a.expired), 'integer'],
    ])} as v(id, balance, earned, spent, expired) where ${pointsAccount.id} = v.id`);
  return kept;
}

/** Creates the accounts of `keys` (a household's is its head's, the member recorded as 户主). */
async function openAccounts(
  tx: Db,
  ctx: Pick<RequestContext, 'tenantId' | 'userId'>,
  kind: 'villager' | 'household',
  keys: string[],
  people: Person[],
  keyOf: (id: string) => string,
) {
  const tenantId = ctx.tenantId;
  const heads = new Map<string, string>();
  const households = [
    ...new Set(people.filter((p) => keys.includes(keyOf(p.id))).map((p) => p.householdNo)),
  ].filter(Boolean) as string[];
  if (kind === 'household' && households.length) {
    const rows = (await tx
      .select({ id: villager.id, householdNo: villager.householdNo })
      .from(villager)
      .where(
        and(
          inArray(villager.householdNo, households),
          eq(villager.relation, '1'),
          eq(villager.tenantId, tenantId),
          notDeleted(villager.isDeleted),
        ),
      )
      .orderBy(asc(villager.id))) as Person[];
    for (const r of rows) if (r.householdNo && !heads.has(r.householdNo)) heads.set(r.householdNo, r.id);
  }
  await tx
    .insert(pointsAccount)
    .values(
      keys.map((ownerKey) => {
        const p = people.find((x) => keyOf(x.id) === ownerKey)!;
        return {
          tenantId,
          ownerKey,
          accountKind: kind,
          villagerId: (kind === 'household' && p.householdNo && heads.get(p.householdNo)) || p.id,
          householdNo: p.householdNo,
          villageGroup: p.villageGroup,
          balance: 0,
          earned: 0,
          spent: 0,
          expired: 0,
          createUser: ctx.userId,
          updateUser: ctx.userId,
        };
      }) as never,
    )
    // another writer may have opened one meanwhile: its row stands
    .onConflictDoNothing();
}

/** events whose credit a rule governs (its switch, dates and caps); a refund or reversal is no new award */
const RULED = new Set<string>(EARNING_EVENTS);

async function alreadyPosted(tx: Db, tenantId: string, eventType: string, bizId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: pointsRecord.id })
    .from(pointsRecord)
    .where(
      and(
        eq(pointsRecord.tenantId, tenantId),
        eq(pointsRecord.eventType, eventType),
        eq(pointsRecord.bizId, bizId),
        notDeleted(pointsRecord.isDeleted),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** What a reversal counts as: the event of the row it reverses (its `bizId`); any other event itself. */
async function countedAs(tx: Db, tenantId: string, eventType: string, bizId: string | null): Promise<string> {
  if (eventType !== POINTS_EVENT.reversal || !bizId) return eventType;
  const [row] = await tx
    .select({ eventType: pointsRecord.eventType })
    .from(pointsRecord)
    .where(and(eq(pointsRecord.id, bizId), eq(pointsRecord.tenantId, tenantId)))
    .limit(1);
  return row ? String(row.eventType) : eventType;
}

/** A rule credits only while on and in effect, within its caps for the account that day and month. */
async function checkRule(
  tx: Db,
  tenantId: string,
  ruleId: string,
  accountId: string,
  points: number,
  day: string,
) {
  const [rule] = await tx
    .select({
      ruleName: pointsRule.ruleName,
      enabled: pointsRule.enabled,
      effective: pointsRule.effective,
      dailyCap: pointsRule.dailyCap,
      monthlyCap: pointsRule.monthlyCap,
    })
    .from(pointsRule)
    .where(
      and(eq(pointsRule.id, ruleId), eq(pointsRule.tenantId, tenantId), notDeleted(pointsRule.isDeleted)),
    )
    .limit(1);
  if (!rule) throw badRequest('fieldInvalid', { field: 'ruleId' });
  const [from, to] = String(rule.effective ?? '').split(',');
  const ruleName = String(rule.ruleName);
  if (Number(rule.enabled) !== 1 || (from && day < from) || (to && day > to))
    throw new ApiError(409, 'pointsRuleOff', { rule: ruleName });
  const within = async (since: string) => {
    const [row] = await tx
      .select({ total: sum(pointsRecord.points) })
      .from(pointsRecord)
      .where(
        and(
          eq(pointsRecord.accountId, accountId),
          eq(pointsRecord.ruleId, ruleId),
          gt(pointsRecord.points, 0),
          gte(pointsRecord.recordDate, since),
          notDeleted(pointsRecord.isDeleted),
        ),
      );
    return Number(row?.total ?? 0);
  };
  const dailyCap = Number(rule.dailyCap ?? 0);
  if (dailyCap > 0 && (await within(day)) + points > dailyCap)
    throw new ApiError(409, 'pointsCapDay', { rule: ruleName, cap: dailyCap });
  const monthlyCap = Number(rule.monthlyCap ?? 0);
  if (monthlyCap > 0 && (await within(`${day.slice(0, 7)}-01`)) + points > monthlyCap)
    throw new ApiError(409, 'pointsCapMonth', { rule: ruleName, cap: monthlyCap });
}

interface Lot {
  id: string;
  remaining: number;
  expiresOn: string | null;
}
const isPast = (l: Lot, day: string) => l.expiresOn !== null && l.expiresOn < day;

/**
 * The open lots of `accountIds`, by account, each account's in the order they are spent: the lots that end
 * first, then the oldest (the `lots` index of the definition). One query for the whole batch.
 */
async function openLots(tx: Db, tenantId: string, accountIds: string[]): Promise<Map<string, Lot[]>> {
  const byAccount = new Map<string, Lot[]>();
  if (!accountIds.length) return byAccount;
  const rows = await tx
    .select({
      id: pointsRecord.id,
      accountId: pointsRecord.accountId,
      remaining: pointsRecord.remaining,
      expiresOn: pointsRecord.expiresOn,
    })
    .from(pointsRecord)
    .where(
      and(
        inArray(pointsRecord.accountId, accountIds),
        eq(pointsRecord.tenantId, tenantId),
        openLot,
        notDeleted(pointsRecord.isDeleted),
      ),
    )
    .orderBy(
      asc(pointsRecord.accountId),
      sql`${pointsRecord.expiresOn} asc nulls last`,
      asc(pointsRecord.recordDate),
      asc(pointsRecord.id),
    );
  for (const r of rows) {
    const lot = {
      id: String(r.id),
      remaining: Number(r.remaining),
      expiresOn: r.expiresOn === null || r.expiresOn === undefined ? null : String(r.expiresOn),
    };
    const list = byAccount.get(String(r.accountId));
    if (list) list.push(lot);
    else byAccount.set(String(r.accountId), [lot]);
  }
  return byAccount;
}

/** An account's lots with points left, in spending order; a reversal of a credit takes that credit's lot first. */
function spendOrder(lots: Lot[], eventType: string, bizId: string | null): Lot[] {
  const open = lots.filter((l) => l.remaining > 0);
  if (eventType !== POINTS_EVENT.reversal || !bizId) return open;
  return [...open.filter((l) => l.id === bizId), ...open.filter((l) => l.id !== bizId)];
}

/**
 * Spends `amount` from `lots` in their order (noting in `taken` what each gives, written after the batch),
 * then from the batch's own credits (`pending`).
 */
function spend(lots: Lot[], amount: number, pending: PendingLot[], taken: Map<string, number>) {
  let left = amount;
  for (const lot of lots) {
    if (left <= 0) break;
    const take = Math.min(left, lot.remaining);
    lot.remaining -= take;
    taken.set(lot.id, (taken.get(lot.id) ?? 0) + take);
    left -= take;
  }
  for (const lot of pending) {
    if (left <= 0) break;
    const take = Math.min(left, Number(lot.record.remaining));
    lot.record.remaining = Number(lot.record.remaining) - take;
    left -= take;
  }
}

/** Who wrote a change: the user's real name (or account); 系统 for the server's own jobs. */
const names = new Map<string, { name: string; at: number }>();
const NAME_TTL_MS = 60_000;

/** Who wrote a change: the user's real name (or account), remembered a minute; 系统 for the server's own jobs. */
export async function operatorName(tx: Db, userId: string): Promise<string> {
  if (!userId || userId === '0') return '系统';
  const known = names.get(userId);
  if (known && Date.now() - known.at < NAME_TTL_MS) return known.name;
  const [row] = await tx
    .select({ realName: schema.user.realName, account: schema.user.account })
    .from(schema.user)
    .where(eq(schema.user.id, userId))
    .limit(1);
  const name = String(row?.realName || row?.account || '系统').slice(0, 30);
  if (names.size > 10_000) names.clear();
  names.set(userId, { name, at: Date.now() });
  return name;
}

/** The definition the ledger's rows are written by (its binding: hooks.ts). */
export const LEDGER = pointsRecordResource;
