import {
  DEED_STATUS,
  EXCHANGE_STATUS,
  MALL_DEMO,
  POINTS_EVENT,
  POINTS_PARAM,
  VILLAGE_DEMO,
} from '@smart/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { today } from '../../platform/format';
import { newRedeemCode } from '../../platform/redeem';
import { nextId, notDeleted, rowsOf } from '../../platform/sql';
import { addMissingParams, insertAll } from '../../seed/insert';
import { SEED } from '../../seed/system';
import { scoreRank, scoreRankRule, villager } from '../village/tables';
import { prepareLedger } from './ledger';
import { exchangeList, pointsDeed, pointsGoods, pointsRecord, pointsRule } from './tables';

/**
 * The points mall's first-start data: its settings (参数管理), the demo village's rules, goods and deeds
 * awaiting review (mall-v1); every tenant's older village scores moved onto the ledger as credits of the
 * same accounts (points-ledger-v1: the village ranking reads the ledger from then on); and a few demo
 * exchanges paid from those balances (mall-exchanges-v1). Ledger rows are prepared by the ledger's own
 * path (`prepareLedger`), as every write of it is; the steps run before the engine is mounted, so they
 * insert what it prepared.
 */

const tenantId = '000000';
const base = {
  tenantId,
  createUser: SEED.adminUserId,
  createDept: SEED.rootDeptId,
  updateUser: SEED.adminUserId,
};
const seq = (first: string, i: number) => String(BigInt(first) + BigInt(i));
const ledgerCtx = (tenant: string) => ({ tenantId: tenant, userId: '0' });

/** Inserts ledger records as `prepareLedger` left them (the seed's stand-in for the write path's insert). */
async function writeLedger(db: Db, tenant: string, records: Record<string, unknown>[]) {
  const kept = await prepareLedger(db, ledgerCtx(tenant), records);
  await insertAll(
    db,
    pointsRecord,
    kept.map((r) => ({ ...r, tenantId: tenant, createUser: SEED.adminUserId, updateUser: SEED.adminUserId })),
  );
}

export async function seedMall(db: Db) {
  await addMissingParams(db, [
    {
      paramName: '积分账户类型',
      paramKey: POINTS_PARAM.accountKind,
      paramValue: 'household',
      remark: '积分记在村民个人(villager)还是户(household)名下;按租户设置用 points.accountKind.<租户号>',
    },
    {
      paramName: '积分有效期',
      paramKey: POINTS_PARAM.expiry,
      paramValue: 'none',
      remark:
        '积分过期方式:none 不过期,yearEnd 当年年底,months:N 获得后 N 个月;按租户设置用 points.expiry.<租户号>',
    },
  ]);
  const day = today();
  const rules: [string, string, number, number, number, number][] = [
    // eventType, name, points, daily cap, monthly cap, needs review
    // the first is MALL_DEMO.ruleId, the second MALL_DEMO.deedRuleId
    [POINTS_EVENT.manual, '村干部奖励', 5, 0, 0, 0],
    [POINTS_EVENT.deed, '好人好事(见义勇为、助人为乐)', 10, 20, 60, 1],
    [POINTS_EVENT.deed, '环境卫生示范户', 5, 5, 20, 1],
    [POINTS_EVENT.task, '按时完成村级任务', 8, 0, 0, 0],
    [POINTS_EVENT.evaluation, '评比获得优秀', 20, 0, 0, 0],
    [POINTS_EVENT.manual, '违反村规民约扣分', -5, 0, 0, 0],
  ];
  await insertAll(
    db,
    pointsRule,
    rules.map(([eventType, ruleName, points, dailyCap, monthlyCap, needReview], i) => ({
      ...base,
      id: seq(MALL_DEMO.ruleId, i),
      eventType,
      ruleName,
      points,
      dailyCap,
      monthlyCap,
      needReview,
      enabled: 1,
      effective: `${day.slice(0, 4)}-01-01,${day.slice(0, 4)}-12-31`,
      description: `${ruleName}:${points > 0 ? '加' : '扣'} ${Math.abs(points)} 分/次`,
    })),
  );
  const goods: [string, string, number, number, number][] = [
    // the first is the one the generated tests' samples exchange: cheap, plentiful, no limit
    ['理发服务券', '5', 20, 1000, 0],
    ['食用油 5L', '2', 120, 30, 2],
    ['洗衣液 2kg', '1', 60, 50, 0],
    ['大米 10kg', '2', 150, 20, 1],
    ['复合肥 40kg', '3', 200, 15, 1],
    ['学生文具套装', '4', 40, 40, 0],
  ];
  await insertAll(
    db,
    pointsGoods,
    goods.map(([goodsName, category, pointsPrice, stock, perPersonLimit], i) => ({
      ...base,
      id: seq(MALL_DEMO.goodsId, i),
      goodsName,
      category,
      pointsPrice,
      stock,
      perPersonLimit,
      onShelf: 1,
      sort: i + 1,
      description: `村积分超市商品:${goodsName}`,
    })),
  );
  const heads = await db
    .select({ id: villager.id, name: villager.name })
    .from(villager)
    .where(and(eq(villager.tenantId, tenantId), eq(villager.relation, '1'), notDeleted(villager.isDeleted)))
    .orderBy(asc(villager.id))
    .limit(6);
  const deeds = ['帮助独居老人收割稻谷', '主动清理村道垃圾', '拾金不昧,归还村民钱包'];
  await insertAll(
    db,
    pointsDeed,
    heads.slice(0, deeds.length).map((h, i) => ({
      ...base,
      villagerId: h.id,
      ruleId: seq(MALL_DEMO.ruleId, i === 1 ? 2 : 1),
      deedDate: day,
      description: `${h.name}${deeds[i]}`,
      evidence: '/api/dfem-hope-manage/file/image/00000000-0000-4000-8000-000000000000.jpg',
      reviewStatus: DEED_STATUS.pending,
    })),
  );
}

/**
 * Every tenant's village scores (积分管理) as ledger credits (and deductions, never below zero) of their
 * accounts, in the order they were recorded, each named by its record: what a later write of them reverses.
 */
export async function migrateVillageScores(db: Db) {
  const rows = await db
    .select({
      id: scoreRank.id,
      tenantId: scoreRank.tenantId,
      villagerId: scoreRank.villagerId,
      points: scoreRank.points,
      recordDate: scoreRank.recordDate,
      ruleName: scoreRankRule.ruleName,
    })
    .from(scoreRank)
    .leftJoin(scoreRankRule, eq(scoreRankRule.id, scoreRank.ruleId))
    .innerJoin(villager, and(eq(villager.id, scoreRank.villagerId), notDeleted(villager.isDeleted)))
    .where(and(notDeleted(scoreRank.isDeleted), sql`${scoreRank.points} <> 0`))
    .orderBy(asc(scoreRank.tenantId), asc(scoreRank.recordDate), asc(scoreRank.id));
  const byTenant = new Map<string, typeof rows>();
  for (const r of rows) byTenant.set(String(r.tenantId), [...(byTenant.get(String(r.tenantId)) ?? []), r]);
  for (const [tenant, list] of byTenant)
    await writeLedger(
      db,
      tenant,
      list.map((r) => ({
        villagerId: String(r.villagerId),
        points: Number(r.points),
        eventType: POINTS_EVENT.village,
        bizId: String(r.id),
        recordDate: String(r.recordDate),
        reason: `村务积分:${String(r.ruleName ?? '')}`.slice(0, 200),
        floorAtZero: true,
      })),
    );
}

/**
 * A few exchanges of the demo village, paid from the migrated balances: two to collect, one collected;
 * and a cadre's reward to the demo villager every sample names (so a sample exchange can be paid).
 */
export async function seedDemoExchanges(db: Db) {
  await writeLedger(db, tenantId, [
    {
      villagerId: VILLAGE_DEMO.villagerId,
      points: 500,
      eventType: POINTS_EVENT.manual,
      ruleId: MALL_DEMO.ruleId,
      reason: '村干部奖励:示范户年度奖励',
    },
  ]);
  const [cheap] = await db
    .select({ id: pointsGoods.id, price: pointsGoods.pointsPrice, name: pointsGoods.goodsName })
    .from(pointsGoods)
    .where(eq(pointsGoods.id, MALL_DEMO.goodsId));
  if (!cheap) return;
  const who = rowsOf(
    await db.execute(sql`select a.villager_id as "villagerId" from hope_points_account a
      where a.tenant_id = ${tenantId} and a.is_deleted = 0 and a.balance >= ${Number(cheap.price)}
      order by a.balance desc, a.id limit 3`),
  ) as { villagerId: string }[];
  for (const [i, w] of who.entries()) {
    const id = await nextId(db);
    await writeLedger(db, tenantId, [
      {
        villagerId: w.villagerId,
        points: -Number(cheap.price),
        eventType: POINTS_EVENT.exchange,
        bizId: id,
        reason: `兑换 ${String(cheap.name)} × 1`,
      },
    ]);
    await insertAll(db, exchangeList, [
      {
        ...base,
        id,
        villagerId: w.villagerId,
        goodsId: cheap.id,
        quantity: 1,
        points: Number(cheap.price),
        exchangeStatus: i === 2 ? EXCHANGE_STATUS.collected : EXCHANGE_STATUS.toCollect,
        redeemCode: newRedeemCode(),
        ...(i === 2 ? { verifierName: '系统', verifyTime: new Date() } : {}),
      },
    ]);
    await db
      .update(pointsGoods)
      .set({ stock: sql`${pointsGoods.stock} - 1` })
      .where(eq(pointsGoods.id, cheap.id));
  }
}
