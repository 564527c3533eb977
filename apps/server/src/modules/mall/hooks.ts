import { DEED_STATUS, EXCHANGE_STATUS, POINTS_EVENT } from '@smart/contracts';
import { and, eq, inArray, ne, sql, sum } from 'drizzle-orm';
import { z } from 'zod';
import type { RequestContext } from '../../platform/auth/context';
import type { ResourceHooks, Row } from '../../platform/crud/binding';
import { endpoint } from '../../platform/crud/endpoints';
import { mountedResource } from '../../platform/crud/refs';
import { transition } from '../../platform/crud/transitions';
import { adjustCount, insertRows, transaction } from '../../platform/crud/write';
import type { Db } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { ApiError, badRequest } from '../../platform/http/errors';
import { idString } from '../../platform/http/ids';
import { newRedeemCode, normalRedeemCode, qrPngDataUrl } from '../../platform/redeem';
import { nextIds, notDeleted } from '../../platform/sql';
import { type LedgerEntry, operatorName, prepareLedger } from './ledger';
import { exchangeList, pointsDeed, pointsGoods, pointsRule } from './tables';

/**
 * The points mall's behaviour beyond the engine's pattern. Every change of points goes through the ledger's
 * write path (`post`: `insertRows` on the mounted `pointsRecord`, whose `beforeCreate` is `prepareLedger`),
 * inside the transaction of the write that caused it: an exchange takes its points and its stock together,
 * a cancellation gives both back together, an approval credits the deed it approves.
 */

const ledger = () => mountedResource('pointsRecord');

/** Posts entries to the ledger inside `tx` (as the one write path does for a form's or an import's rows). */
export async function post(ctx: RequestContext, tx: Db, entries: LedgerEntry[]): Promise<Row[]> {
  const written = await insertRows(ledger(), ctx, tx, entries as unknown as Record<string, unknown>[], {
    answer: true,
  });
  return written.map((w) => w.row);
}

const nowText = () => formatDateTime(new Date());

/** 积分记录: a cadre's grant or deduction (the form, `sub`), or an imported batch; never edited or removed. */
function recordHooks(): ResourceHooks {
  return {
    beforeWrite(_ctx, record, mode, _id, _original, via) {
      if (mode !== 'create') return;
      record.eventType = via === 'import' ? POINTS_EVENT.import : POINTS_EVENT.manual;
      record.bizId = null;
      if (Number(record.points) === 0) throw badRequest('fieldInvalid', { field: 'points' });
    },
    async beforeCreate(ctx, records, tx) {
      await prepareLedger(tx, ctx, records);
    },
    endpoints: [
      /** `points/record/sub?villagerId=&points=&reason=[&ruleId=]`: the spec's GET adjustment, as the form's add */
      endpoint({
        method: 'GET',
        path: 'sub',
        codeSuffix: '_sub',
        query: z
          .object({
            villagerId: idString,
            points: z.coerce.number().int().min(-100000).max(100000),
            reason: z.string().trim().min(1).max(200),
            ruleId: idString.optional(),
          })
          .strict(),
        async handler({ ctx, resource, query }) {
          const record: Record<string, unknown> = { ...query, ruleId: query.ruleId ?? null };
          await resource.check(ctx, record, 'create');
          const [row] = await transaction(resource.db, async (tx) => {
            record.eventType = POINTS_EVENT.manual;
            return insertRows(resource, ctx, tx, [record], { answer: true });
          });
          if (!row) throw badRequest();
          const [out] = await resource.output(ctx, [row.row]);
          return out;
        },
      }),
    ],
  };
}

/** 积分规则: its switch (`switch?id=&enabled=`, the spec's GET; without `enabled` it flips) and `update`. */
function ruleHooks(): ResourceHooks {
  return {
    updatePath: 'update',
    endpoints: [
      endpoint({
        method: 'GET',
        path: 'switch',
        codeSuffix: '_switch',
        query: z.object({ id: idString, enabled: z.enum(['0', '1']).optional() }).strict(),
        async handler({ ctx, resource, scope, query }) {
          const row = await transaction(resource.db, (tx) =>
            resource.patch(
              ctx,
              tx,
              query.id,
              (was) => ({ enabled: query.enabled ?? (Number(was.enabled) === 1 ? 0 : 1) }),
              scope,
            ),
          );
          return { id: row.id, enabled: Number(row.enabled) };
        },
      }),
    ],
  };
}

/** 积分商品: the spec's `del?goodsId=` and `upsert`; stock moves only by exchanges or a person's edit. */
const goodsHooks: ResourceHooks = {
  submitAliases: ['upsert'],
  removeRoutes: [{ method: 'GET', path: 'del', idsParam: 'goodsId' }],
};

/** A deed's credit, once: the rule's points for the villager, named by the deed (its business id). */
async function creditDeed(ctx: RequestContext, tx: Db, deed: Row): Promise<number> {
  const [rule] = await tx
    .select({ points: pointsRule.points, ruleName: pointsRule.ruleName })
    .from(pointsRule)
    .where(and(eq(pointsRule.id, String(deed.ruleId)), eq(pointsRule.tenantId, ctx.tenantId)))
    .limit(1);
  if (!rule) throw badRequest('fieldInvalid', { field: 'ruleId' });
  const points = Number(rule.points);
  await post(ctx, tx, [
    {
      villagerId: String(deed.villagerId),
      points,
      eventType: POINTS_EVENT.deed,
      bizId: String(deed.id),
      ruleId: String(deed.ruleId),
      reason: `好人好事:${String(rule.ruleName)}`.slice(0, 200),
    },
  ]);
  return points;
}

/** What an approval writes on the deed: approved, the points credited, by whom and when. */
async function approval(ctx: RequestContext, tx: Db, deed: Row) {
  if (String(deed.reviewStatus) !== DEED_STATUS.pending) throw new ApiError(409, 'deedReviewed');
  const creditedPoints = await creditDeed(ctx, tx, deed);
  return {
    reviewStatus: DEED_STATUS.approved,
    creditedPoints,
    reviewerName: await operatorName(tx, ctx.userId),
    reviewTime: nowText(),
  };
}

/**
 * 积分审核: a deed is reviewed once. Approving credits the rule's points (a rule that needs no review credits
 * at once, when the deed is recorded); rejecting needs a reason. A reviewed deed is no longer edited.
 */
function deedHooks(): ResourceHooks {
  return {
    beforeWrite(_ctx, record, mode, _id, original) {
      if (mode === 'create') record.reviewStatus = DEED_STATUS.pending;
      else if (original && String(original.reviewStatus) !== DEED_STATUS.pending)
        throw new ApiError(409, 'deedReviewed');
    },
    async afterChange(ctx, changes, tx) {
      for (const c of changes) {
        if (c.mode !== 'create') continue;
        const [rule] = await tx
          .select({ needReview: pointsRule.needReview })
          .from(pointsRule)
          .where(and(eq(pointsRule.id, String(c.row.ruleId)), eq(pointsRule.tenantId, ctx.tenantId)))
          .limit(1);
        if (rule && Number(rule.needReview) === 0)
          await mountedResource('pointsDeed').patch(ctx, tx, String(c.row.id), (was) =>
            approval(ctx, tx, was),
          );
      }
    },
    async beforeRemove(ctx, ids, tx) {
      const [approved] = await tx
        .select({ id: pointsDeed.id })
        .from(pointsDeed)
        .where(
          and(
            eq(pointsDeed.tenantId, ctx.tenantId),
            inArray(pointsDeed.id, ids),
            eq(pointsDeed.reviewStatus, DEED_STATUS.approved),
          ),
        )
        .limit(1);
      // its points stay credited: a deed credited by mistake is corrected by a reversing record
      if (approved) throw new ApiError(409, 'deedReviewed');
    },
    endpoints: [
      endpoint({
        method: 'POST',
        path: 'approve',
        codeSuffix: '_approve',
        query: z.object({}).strict(),
        body: z.object({ id: idString }).strict(),
        async handler({ ctx, resource, scope, body }) {
          const row = await transaction(resource.db, (tx) =>
            resource.patch(ctx, tx, body.id, (was) => approval(ctx, tx, was), scope),
          );
          const [out] = await resource.output(ctx, [row]);
          return out;
        },
      }),
      endpoint({
        method: 'POST',
        path: 'reject',
        codeSuffix: '_reject',
        query: z.object({}).strict(),
        body: z.object({ id: idString, reason: z.string().trim().min(1).max(200) }).strict(),
        async handler({ ctx, resource, scope, body }) {
          const row = await transaction(resource.db, (tx) =>
            resource.patch(
              ctx,
              tx,
              body.id,
              async (was) => {
                if (String(was.reviewStatus) !== DEED_STATUS.pending) throw new ApiError(409, 'deedReviewed');
                return {
                  reviewStatus: DEED_STATUS.rejected,
                  rejectReason: body.reason,
                  reviewerName: await operatorName(tx, ctx.userId),
                  reviewTime: nowText(),
                };
              },
              scope,
            ),
          );
          const [out] = await resource.output(ctx, [row]);
          return out;
        },
      }),
    ],
  };
}

/** The goods of `ids` a caller may exchange, read in the exchange's transaction (one query for a batch). */
async function goodsOf(ctx: RequestContext, tx: Db, ids: string[]) {
  const goods = mountedResource('pointsGoods');
  const rows = await tx
    .select({
      id: pointsGoods.id,
      goodsName: pointsGoods.goodsName,
      pointsPrice: pointsGoods.pointsPrice,
      stock: pointsGoods.stock,
      perPersonLimit: pointsGoods.perPersonLimit,
      onShelf: pointsGoods.onShelf,
    })
    .from(pointsGoods)
    .where(and(inArray(pointsGoods.id, ids), await goods.tenantConstraint(ctx)));
  return new Map(rows.map((g) => [String(g.id), g]));
}

/** An exchange's points and stock given back together (a cancellation, a withdrawal), once. */
async function giveBack(ctx: RequestContext, tx: Db, row: Row, reason: string) {
  await post(ctx, tx, [
    {
      villagerId: String(row.villagerId),
      points: Number(row.points),
      eventType: POINTS_EVENT.refund,
      bizId: String(row.id),
      reason: reason.slice(0, 200),
    },
  ]);
  const goods = mountedResource('pointsGoods');
  await adjustCount(
    goods,
    ctx,
    tx,
    String(row.goodsId),
    'stock',
    Number(row.quantity),
    await goods.tenantConstraint(ctx),
  );
}

/**
 * 兑换列表: an exchange takes the villager's points (the ledger refuses what the balance cannot pay: an
 * account's writers queue on its lock) and, once its row is written, the stock (one conditional update:
 * never below zero; the hot row's lock is then held only to the commit), in the exchange's transaction;
 * either refusal undoes both. The row gets its redemption code. Cancelling one
 * awaiting collection returns both, together; 核销 (`verify`, by the code as typed or scanned) hands it over.
 */
function exchangeHooks(): ResourceHooks {
  return {
    // a counter's rush (many villagers at once, one hot item) is written in batches: one transaction, one
    // ledger post and one stock update for all who came together
    coalesceCreates: true,
    async beforeCreate(ctx, records, tx) {
      // several exchanges arrive together when they come at once (`coalesceCreates`): the goods are read
      // once, the ids drawn once and all the debits posted in one go
      const goods = await goodsOf(ctx, tx, [...new Set(records.map((r) => String(r.goodsId)))]);
      const ids = await nextIds(tx, records.length);
      const debits: LedgerEntry[] = records.map((r, i) => {
        const g = goods.get(String(r.goodsId));
        if (!g) throw badRequest('fieldInvalid', { field: 'goodsId' });
        if (Number(g.onShelf) !== 1) throw new ApiError(409, 'goodsOffShelf');
        const quantity = Number(r.quantity ?? 1);
        Object.assign(r, {
          id: ids[i],
          points: Number(g.pointsPrice) * quantity,
          exchangeStatus: EXCHANGE_STATUS.toCollect,
          redeemCode: newRedeemCode(),
        });
        return {
          villagerId: String(r.villagerId),
          points: -Number(r.points),
          eventType: POINTS_EVENT.exchange,
          bizId: String(r.id),
          fresh: true,
          reason: `兑换 ${String(g.goodsName)} × ${quantity}`.slice(0, 200),
        };
      });
      // the points first: the accounts' locks also queue each villager's exchanges for the limit below
      await post(ctx, tx, debits);
      const inBatch = new Map<string, number>();
      for (const r of records) {
        const limit = Number(goods.get(String(r.goodsId))!.perPersonLimit ?? 0);
        if (limit <= 0) continue;
        const key = `${String(r.villagerId)}|${String(r.goodsId)}`;
        const [held] = await tx
          .select({ taken: sum(exchangeList.quantity) })
          .from(exchangeList)
          .where(
            and(
              eq(exchangeList.tenantId, ctx.tenantId),
              eq(exchangeList.villagerId, String(r.villagerId)),
              eq(exchangeList.goodsId, String(r.goodsId)),
              ne(exchangeList.exchangeStatus, EXCHANGE_STATUS.cancelled),
              notDeleted(exchangeList.isDeleted),
            ),
          );
        const taken = Number(held?.taken ?? 0) + (inBatch.get(key) ?? 0);
        const quantity = Number(r.quantity ?? 1);
        if (taken + quantity > limit) throw new ApiError(409, 'exchangeLimit', { limit, taken });
        inBatch.set(key, (inBatch.get(key) ?? 0) + quantity);
      }
    },
    async afterChange(ctx, changes, tx) {
      // the stock last, after the rows are written, one update per goods: the hot goods row stays locked
      // only to the commit
      const wanted = new Map<string, number>();
      for (const c of changes)
        if (c.mode === 'create')
          wanted.set(
            String(c.row.goodsId),
            (wanted.get(String(c.row.goodsId)) ?? 0) + Number(c.row.quantity),
          );
      const goods = mountedResource('pointsGoods');
      // in id order: two batches of several goods never wait on each other crosswise
      for (const [goodsId, quantity] of [...wanted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const left = await adjustCount(
          goods,
          ctx,
          tx,
          goodsId,
          'stock',
          -quantity,
          await goods.tenantConstraint(ctx),
        );
        if (left === undefined) {
          const [now] = await tx
            .select({ stock: pointsGoods.stock })
            .from(pointsGoods)
            .where(eq(pointsGoods.id, goodsId));
          throw new ApiError(409, 'stockShort', { stock: Number(now?.stock ?? 0) });
        }
      }
      for (const c of changes) {
        if (c.mode === 'create') continue;
        const was = c.original?.exchangeStatus;
        if (String(was) !== EXCHANGE_STATUS.toCollect) continue;
        if (String(c.row.exchangeStatus) !== EXCHANGE_STATUS.cancelled) continue;
        await giveBack(ctx, tx, c.row, `取消兑换退回:${String(c.row.cancelReason ?? '')}`);
      }
    },
    /** one removed while awaiting collection is withdrawn: its points and stock come back, as cancelled */
    async afterDelete(ctx, ids, tx) {
      const withdrawn = await tx
        .select({
          id: exchangeList.id,
          villagerId: exchangeList.villagerId,
          goodsId: exchangeList.goodsId,
          quantity: exchangeList.quantity,
          points: exchangeList.points,
        })
        .from(exchangeList)
        .where(
          and(
            eq(exchangeList.tenantId, ctx.tenantId),
            inArray(exchangeList.id, ids),
            eq(exchangeList.exchangeStatus, EXCHANGE_STATUS.toCollect),
          ),
        );
      for (const row of withdrawn) await giveBack(ctx, tx, row, '删除待领取的兑换退回');
    },
    transitions: [
      transition({
        name: 'cancel',
        codeSuffix: '_cancel',
        field: 'exchangeStatus',
        from: [EXCHANGE_STATUS.toCollect],
        to: EXCHANGE_STATUS.cancelled,
        refused: () => new ApiError(409, 'exchangeClosed'),
        body: { reason: z.string().trim().min(1).max(200) },
        set: (_row, body) => ({ cancelReason: body.reason }),
      }),
    ],
    endpoints: [
      /** 核销: the code as typed or scanned; the exchange within the caller's reach, awaiting collection */
      endpoint({
        method: 'POST',
        path: 'verify',
        codeSuffix: '_verify',
        query: z.object({}).strict(),
        body: z.object({ code: z.string().max(40) }).strict(),
        async handler({ ctx, resource, scope, body }) {
          const code = normalRedeemCode(body.code);
          if (!code) throw badRequest('fieldInvalid', { field: 'code' });
          const row = await transaction(resource.db, async (tx) => {
            const [found] = await tx
              .select({ id: exchangeList.id })
              .from(exchangeList)
              .where(and(eq(exchangeList.redeemCode, code), scope))
              .limit(1);
            if (!found) throw new ApiError(404, 'redeemCodeUnknown');
            return resource.patch(
              ctx,
              tx,
              String(found.id),
              async (was) => {
                if (String(was.exchangeStatus) !== EXCHANGE_STATUS.toCollect)
                  throw new ApiError(409, 'exchangeClosed');
                return {
                  exchangeStatus: EXCHANGE_STATUS.collected,
                  verifierName: await operatorName(tx, ctx.userId),
                  verifyTime: nowText(),
                };
              },
              scope,
            );
          });
          const [out] = await resource.output(ctx, [row]);
          return out;
        },
      }),
      /** the exchange's code as a QR image (the villager shows it at the counter) */
      endpoint({
        method: 'GET',
        path: 'qrcode',
        codeSuffix: ['', '_view'],
        query: z.object({ id: idString }).strict(),
        async handler({ resource, scope, query }) {
          const [row] = await resource.db
            .select({ code: exchangeList.redeemCode })
            .from(exchangeList)
            .where(and(eq(exchangeList.id, query.id), scope))
            .limit(1);
          if (!row) throw new ApiError(404, 'notFound');
          const code = String(row.code);
          return { code, image: await qrPngDataUrl(code) };
        },
      }),
    ],
  };
}

/**
 * 积分排名: the accounts with their places, dense (equal balances share a place and the next follows:
 * 100, 100, 80 → 1, 1, 2) in the village (the tenant) and in the village group.
 */
const rankSql = sql<number>`(select (count(distinct x.balance) + 1)::int from hope_points_account x
  where x.tenant_id = hope_points_account.tenant_id and x.is_deleted = 0
  and x.balance > hope_points_account.balance)`;
const groupRankSql = sql<number>`(select (count(distinct x.balance) + 1)::int from hope_points_account x
  where x.tenant_id = hope_points_account.tenant_id and x.is_deleted = 0
  and x.village_group is not distinct from hope_points_account.village_group
  and x.balance > hope_points_account.balance)`;
const accountHooks: ResourceHooks = {
  beside: { rank: rankSql, groupRank: groupRankSql },
  toRow: (row) => ({
    ...row,
    rank: row.rank === undefined ? row.rank : Number(row.rank),
    groupRank: row.groupRank === undefined ? row.groupRank : Number(row.groupRank),
  }),
};

/** The points mall's resources with behaviour beyond the pattern (the area: ./area.ts). */
export function mallHooks(): Record<string, ResourceHooks> {
  return {
    pointsRecord: recordHooks(),
    pointsRule: ruleHooks(),
    pointsGoods: goodsHooks,
    pointsDeed: deedHooks(),
    exchangeList: exchangeHooks(),
    pointsAccount: accountHooks,
  };
}
