import {
  DEED_STATUS,
  EVALUATION_DEMO,
  EXCHANGE_STATUS,
  MALL_DEMO,
  POINTS_EVENT,
  pointsExpireOn,
  villagerResource,
} from '@smart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expirePoints } from '../src/modules/mall/expiry';
import { pointsAccount, pointsRecord } from '../src/modules/mall/tables';
import { today } from '../src/platform/format';
import {
  areaServer,
  grantCodes,
  makeRole,
  readSheet,
  sampleRecord,
  serviceCalls,
  signedInUser,
  uploadFile,
  xlsxOf,
} from './fixtures';
import type { TestServer } from './harness';

/**
 * 积分超市: one append-only ledger. Concurrent exchanges never spend points twice or oversell; a business
 * event is credited once; a rule's caps hold; a cancellation returns points and stock together; the oldest
 * points are spent first and expired ones are not spendable; deeds are credited when approved; 核销 takes a
 * code once; and another tenant, a user without the button or bad input reach nothing.
 */
let s: TestServer;
let token: string;
let foreign: string;
beforeAll(async () => {
  ({ s, token, other: foreign } = await areaServer(['200331', '外村积分', 'mallForeign']));
});
afterAll(() => s.close());

const { get, post } = serviceCalls(
  () => s,
  '/api/dfem-hope-manage',
  () => token,
);
const system = serviceCalls(
  () => s,
  '/api/dfem-system',
  () => token,
);
const db = () => s.database.db;

let n = 0;
/** A villager heading a household of its own (so an account of its own), answered by id. */
async function villager(): Promise<string> {
  n++;
  const res = await post('/villager/submit', {
    ...sampleRecord(villagerResource, 7000 + n),
    householdNo: `MALL-${n}-${Date.now() % 100000}`,
    relation: '1',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}

/** A cadre's grant (or deduction) through the spec's GET. */
const grant = (villagerId: string, points: number, reason = '测试发放', tk = token) =>
  get(
    `/points/record/sub?villagerId=${villagerId}&points=${points}&reason=${encodeURIComponent(reason)}`,
    tk,
  );

async function balance(villagerId: string): Promise<number> {
  const res = await get(`/villager/wx/points?villagerId=${villagerId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.balance as number;
}

/** The ledger's rows of a villager's account add up to its balance, and no balance after is negative. */
async function ledgerAgrees(villagerId: string) {
  const rows = await db()
    .select({
      points: pointsRecord.points,
      after: pointsRecord.balanceAfter,
      accountId: pointsRecord.accountId,
    })
    .from(pointsRecord)
    .where(eq(pointsRecord.villagerId, villagerId));
  const [account] = await db()
    .select({ balance: pointsAccount.balance })
    .from(pointsAccount)
    .where(eq(pointsAccount.id, String(rows[0].accountId)));
  expect(rows.reduce((t, r) => t + Number(r.points), 0)).toBe(Number(account.balance));
  expect(rows.every((r) => Number(r.after) >= 0)).toBe(true);
  return Number(account.balance);
}

async function goods(stock: number, pointsPrice: number, extra: object = {}): Promise<string> {
  const res = await post('/points/goods/upsert', {
    goodsName: `测试商品${++n}`,
    category: '1',
    pointsPrice,
    stock,
    onShelf: 1,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id as string;
}

const exchange = (villagerId: string, goodsId: string, quantity = 1, tk = token) =>
  post('/exchangeList/submit', { villagerId, goodsId, quantity }, tk);

async function stockOf(goodsId: string): Promise<number> {
  const res = await get(`/points/goods/detail?id=${goodsId}`);
  return res.json().data.stock as number;
}

describe('the ledger under concurrency', () => {
  it('20 concurrent exchanges of 60 points on a balance of 100: exactly one, and the ledger sums to the balance', async () => {
    const v = await villager();
    expect((await grant(v, 100)).statusCode).toBe(200);
    const g = await goods(100, 60);
    const answers = await Promise.all(Array.from({ length: 20 }, () => exchange(v, g)));
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok).toHaveLength(1);
    // the others are told why, never a 500
    for (const a of answers.filter((x) => x.statusCode !== 200)) {
      expect(a.statusCode).toBe(409);
      expect(a.json().msg).toContain('积分余额不足');
    }
    expect(await balance(v)).toBe(40);
    expect(await ledgerAgrees(v)).toBe(40);
    expect(await stockOf(g)).toBe(99);
  });

  it('20 concurrent exchanges for the last 3 in stock: exactly 3, stock 0, the refused pay nothing', async () => {
    const g = await goods(3, 10);
    const people = [];
    for (let i = 0; i < 20; i++) {
      const v = await villager();
      await grant(v, 50);
      people.push(v);
    }
    const answers = await Promise.all(people.map((v) => exchange(v, g)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(3);
    for (const a of answers.filter((x) => x.statusCode !== 200)) expect(a.json().msg).toContain('库存不足');
    expect(await stockOf(g)).toBe(0);
    const balances = await Promise.all(people.map(balance));
    expect(balances.filter((b) => b === 40)).toHaveLength(3);
    expect(balances.filter((b) => b === 50)).toHaveLength(17);
  });

  it('exchanges that come together are written together, and one that cannot pay refuses no other', async () => {
    const g = await goods(100, 30);
    const people = [];
    for (let i = 0; i < 12; i++) {
      const v = await villager();
      // the fifth cannot pay
      await grant(v, i === 4 ? 10 : 100);
      people.push(v);
    }
    const answers = await Promise.all(people.map((v) => exchange(v, g)));
    expect(answers.map((a) => a.statusCode)).toEqual(people.map((_, i) => (i === 4 ? 409 : 200)));
    expect(answers[4].json().msg).toContain('积分余额不足');
    // each answer is its own exchange: its villager, its code
    const made = answers.filter((a) => a.statusCode === 200).map((a) => a.json().data);
    expect(made.map((e) => e.villagerId)).toEqual(people.filter((_, i) => i !== 4));
    expect(new Set(made.map((e) => e.redeemCode)).size).toBe(11);
    expect(await stockOf(g)).toBe(89);
    const balances = await Promise.all(people.map(balance));
    expect(balances).toEqual(people.map((_, i) => (i === 4 ? 10 : 70)));
    for (const v of people) expect(await ledgerAgrees(v)).toBe(await balance(v));

    // a villager nobody can see, among others that come at once: a 400 naming the field, the others written
    const more = [people[0], '1999999999999999999', people[1]];
    const mixed = await Promise.all(more.map((v) => exchange(v, g)));
    expect(mixed.map((a) => a.statusCode)).toEqual([200, 400, 200]);
    expect(mixed[1].json().data.field).toBe('villagerId');
    expect(await stockOf(g)).toBe(87);
  });
});

describe('settings', () => {
  it('the account kind follows its parameter at once: the remembered settings are forgotten when it changes', async () => {
    const v = await villager();
    const kindOf = async () => (await get(`/villager/wx/points?villagerId=${v}`)).json().data.accountKind;
    expect(await kindOf()).toBe('household');
    const made = await system.post('/param/submit', {
      paramName: '积分账户',
      paramKey: 'points.accountKind.000000',
      paramValue: 'villager',
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(await kindOf()).toBe('villager');
    const removed = await system.post(`/param/remove?ids=${made.json().data.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await kindOf()).toBe('household');
  });
});

describe('exchanges', () => {
  it('a cancellation returns the points and the stock together; 核销 takes a code once', async () => {
    const v = await villager();
    await grant(v, 200);
    const g = await goods(5, 70);
    const made = await exchange(v, g, 2);
    expect(made.statusCode, made.body).toBe(200);
    const ex = made.json().data;
    expect(await balance(v)).toBe(60);
    expect(await stockOf(g)).toBe(3);

    const qr = await get(`/exchangeList/qrcode?id=${ex.id}`);
    expect(qr.statusCode).toBe(200);
    expect(qr.json().data.image).toMatch(/^data:image\/png;base64,/);

    // no reason, no cancellation
    expect((await post('/exchangeList/cancel', { id: ex.id })).statusCode).toBe(400);
    const cancelled = await post('/exchangeList/cancel', { id: ex.id, reason: '村民改换商品' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await balance(v)).toBe(200);
    expect(await stockOf(g)).toBe(5);
    expect((await post('/exchangeList/cancel', { id: ex.id, reason: '再取消' })).statusCode).toBe(409);
    // a cancelled exchange cannot be handed over
    const code = qr.json().data.code as string;
    expect((await post('/exchangeList/verify', { code })).statusCode).toBe(409);

    const again = (await exchange(v, g)).json().data;
    const { code: code2 } = (await get(`/exchangeList/qrcode?id=${again.id}`)).json().data;
    // typed as a clerk types it: lower case, with a dash
    const typed = `${code2.slice(0, 5).toLowerCase()}-${code2.slice(5)}`;
    const verified = await post('/exchangeList/verify', { code: typed });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().data.exchangeStatus).toBe(EXCHANGE_STATUS.collected);
    expect(verified.json().data.verifierName).toBeTruthy();
    expect((await post('/exchangeList/verify', { code: code2 })).statusCode).toBe(409);
    expect((await post('/exchangeList/verify', { code: 'ZZZZZZZZZZ' })).statusCode).toBe(404);
    expect((await post('/exchangeList/verify', { code: "' or 1=1 --" })).statusCode).toBe(400);
    // an exchange is never edited
    expect(
      (await post('/exchangeList/submit', { id: again.id, villagerId: v, goodsId: g, quantity: 3 }))
        .statusCode,
    ).toBe(403);
    expect(await ledgerAgrees(v)).toBe(130);
    // one removed while awaiting collection gives its points and stock back, as a cancellation does
    const third = (await exchange(v, g)).json().data;
    expect(await balance(v)).toBe(60);
    expect((await post(`/exchangeList/remove?ids=${third.id}`)).statusCode).toBe(200);
    expect(await balance(v)).toBe(130);
    expect(await stockOf(g)).toBe(4);
    // a collected one removed from the list stays paid for
    expect((await post(`/exchangeList/remove?ids=${again.id}`)).statusCode).toBe(200);
    expect(await ledgerAgrees(v)).toBe(130);
  });

  it('goods off the shelf and a per-person limit are refused with their reasons', async () => {
    const v = await villager();
    await grant(v, 500);
    const off = await goods(5, 10, { onShelf: 0 });
    expect((await exchange(v, off)).json().msg).toContain('已下架');
    const limited = await goods(10, 10, { perPersonLimit: 2 });
    expect((await exchange(v, limited, 2)).statusCode).toBe(200);
    const third = await exchange(v, limited);
    expect(third.statusCode).toBe(409);
    expect(third.json().msg).toContain('每人限兑 2 件');
    expect(await balance(v)).toBe(480);
  });
});

describe('credits', () => {
  it('the same business event is credited once: a task completed, reopened and completed again', async () => {
    const v = await villager();
    const task = await post('/evaluationTask/submit', { title: '清理河道', assigneeId: v, taskStatus: '2' });
    expect(task.statusCode, task.body).toBe(200);
    const id = task.json().data.id;
    for (const status of ['3', '2', '3'])
      expect((await post('/evaluationTask/submit', { id, taskStatus: status })).statusCode).toBe(200);
    const rows = await db()
      .select({ points: pointsRecord.points })
      .from(pointsRecord)
      .where(and(eq(pointsRecord.eventType, POINTS_EVENT.task), eq(pointsRecord.bizId, id)));
    expect(rows).toHaveLength(1);
    expect(await balance(v)).toBe(8);
  });

  it('a published evaluation credits the villagers placed first to third, once', async () => {
    const [first, second, fourth] = [await villager(), await villager(), await villager()];
    const rule = (
      await post('/evaluationRule/submit', {
        categoryId: EVALUATION_DEMO.categoryId,
        name: `积分评比规则${++n}`,
        weight: 100,
        maxScore: 100,
      })
    ).json().data.id;
    const project = (
      await post('/evaluationProject/submit', {
        name: `积分评比${n}`,
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        ruleWeights: JSON.stringify([{ ruleId: rule, weight: 100 }]),
      })
    ).json().data.id;
    const entry = async (villagerId: string | undefined, score: number, name: string) => {
      const e = await post('/evaluationList/submit', {
        projectId: project,
        subjectName: name,
        subjectType: '2',
        villagerId,
      });
      expect(e.statusCode, e.body).toBe(200);
      await post('/evaluationList/score', { id: e.json().data.id, scores: { [rule]: score } });
    };
    await entry(first, 95, '第一户');
    await entry(second, 90, '第二户');
    await entry(undefined, 85, '第三组'); // a group: no villager to credit
    await entry(fourth, 80, '第四户');
    expect((await post('/evaluationProject/publish', { id: project })).statusCode).toBe(200);
    expect([await balance(first), await balance(second), await balance(fourth)]).toEqual([20, 20, 0]);
    // reopened and published again: not paid twice
    expect((await post('/evaluationProject/reopen', { id: project, reason: '复核' })).statusCode).toBe(200);
    expect((await post('/evaluationProject/publish', { id: project })).statusCode).toBe(200);
    expect(await balance(first)).toBe(20);
  });

  it('a capped rule credits at most its cap a day, in both languages', async () => {
    const rule = await post('/points/rule/submit', {
      ruleName: `每日上限规则${++n}`,
      eventType: POINTS_EVENT.manual,
      points: 5,
      dailyCap: 10,
      needReview: 0,
      enabled: 1,
    });
    expect(rule.statusCode, rule.body).toBe(200);
    const ruleId = rule.json().data.id;
    const v = await villager();
    const sub = (lang = 'zh') =>
      get(
        `/points/record/sub?villagerId=${v}&points=5&reason=${encodeURIComponent('按规则奖励')}&ruleId=${ruleId}`,
        token,
        lang,
      );
    expect((await sub()).statusCode).toBe(200);
    expect((await sub()).statusCode).toBe(200);
    const third = await sub();
    expect(third.statusCode).toBe(409);
    expect(third.json().msg).toContain('每日上限(10 分)');
    expect((await sub('en')).json().msg).toContain('daily cap (10 points)');
    expect(await balance(v)).toBe(10);
    // switched off (the spec's GET switch), it credits nothing
    const off = await get(`/points/rule/switch?id=${ruleId}&enabled=0`);
    expect(off.json().data.enabled).toBe(0);
    const v2 = await villager();
    expect(
      (await get(`/points/record/sub?villagerId=${v2}&points=5&reason=x&ruleId=${ruleId}`)).json().msg,
    ).toContain('未启用');
  });

  it('a deduction beyond the balance is refused; the ledger is never edited or removed', async () => {
    const v = await villager();
    await grant(v, 10);
    const short = await grant(v, -11, '违反村规');
    expect(short.statusCode).toBe(409);
    expect(short.json().msg).toBe('积分余额不足(可用 10 分)');
    const taken = await grant(v, -4, '违反村规');
    expect(taken.statusCode).toBe(200);
    const rowId = taken.json().data.id;
    expect(
      (await post('/points/record/submit', { id: rowId, villagerId: v, points: 100, reason: '改' }))
        .statusCode,
    ).toBe(403);
    expect((await post(`/points/record/remove?ids=${rowId}`)).statusCode).toBe(403);
    expect(await ledgerAgrees(v)).toBe(6);
  });

  it('a deed is credited when a cadre approves it; a rejection needs a reason; a reviewed deed is final', async () => {
    const v = await villager();
    const deed = await post('/points/deed/submit', {
      villagerId: v,
      ruleId: MALL_DEMO.deedRuleId,
      deedDate: today(),
      description: '帮助邻居抢收稻谷',
      evidence: '/api/dfem-hope-manage/file/image/00000000-0000-4000-8000-000000000000.jpg',
    });
    expect(deed.statusCode, deed.body).toBe(200);
    const id = deed.json().data.id;
    expect(deed.json().data.reviewStatus).toBe(DEED_STATUS.pending);
    expect(await balance(v)).toBe(0);
    const ok = await post('/points/deed/approve', { id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.creditedPoints).toBe(10);
    expect(await balance(v)).toBe(10);
    expect((await post('/points/deed/approve', { id })).statusCode).toBe(409);
    expect((await post('/points/deed/reject', { id, reason: '重复' })).statusCode).toBe(409);

    const other = (
      await post('/points/deed/submit', {
        villagerId: v,
        ruleId: MALL_DEMO.deedRuleId,
        deedDate: today(),
        description: '无佐证',
        evidence: '/api/dfem-hope-manage/file/image/00000000-0000-4000-8000-000000000000.jpg',
      })
    ).json().data.id;
    expect((await post('/points/deed/reject', { id: other })).statusCode).toBe(400);
    const rejected = await post('/points/deed/reject', { id: other, reason: '照片不清楚' });
    expect(rejected.json().data.reviewStatus).toBe(DEED_STATUS.rejected);
    expect(await balance(v)).toBe(10);
  });
});

describe('batches and notices', () => {
  it('an Excel batch is posted row by row through the same ledger, as 批量导入', async () => {
    const v = await villager();
    const person = (await get(`/villager/detail?id=${v}`)).json().data as { name: string; idCard: string };
    const template = await get('/points/record/excel/template');
    expect(template.statusCode).toBe(200);
    const [header] = (await readSheet(template.rawPayload)) as string[][];
    const cell = (h: string, points: number, reason: string) =>
      h === '村民'
        ? person.name
        : h.includes('身份证')
          ? person.idCard
          : h.startsWith('积分变动')
            ? points
            : h === '事由'
              ? reason
              : null;
    const file = await xlsxOf(header, [
      header.map((h) => cell(h, 12, '清明护林')),
      header.map((h) => cell(h, -5, '垃圾未分类')),
    ]);
    const imported = await uploadFile(s, token, '/api/dfem-hope-manage/points/record/excel/import', file);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json().data).toMatchObject({ created: 2 });
    expect(await balance(v)).toBe(7);
    const rows = await db()
      .select({ eventType: pointsRecord.eventType, operator: pointsRecord.operatorName })
      .from(pointsRecord)
      .where(eq(pointsRecord.villagerId, v));
    expect(rows.map((r) => r.eventType)).toEqual([POINTS_EVENT.import, POINTS_EVENT.import]);
    // who gave the points is on every row
    expect(rows.every((r) => r.operator)).toBe(true);
  });

  it('the ranking is published as an Excel notice, places first', async () => {
    const res = await get('/points/account/excel/notice');
    expect(res.statusCode, res.body).toBe(200);
    const [header, ...rows] = (await readSheet(res.rawPayload)) as string[][];
    expect(header.slice(0, 2)).toEqual(['全村名次', '组内名次']);
    expect(header).toContain('户号');
    expect(header.some((h) => h.startsWith('积分余额'))).toBe(true);
    expect(rows.length).toBeGreaterThan(0);
    // each row carries its place: the largest balance is first in the village
    const balanceAt = header.findIndex((h) => h.startsWith('积分余额'));
    const top = Math.max(...rows.map((r) => Number(r[balanceAt])));
    for (const r of rows) expect(Number(r[0]) === 1).toBe(Number(r[balanceAt]) === top);
  });
});

describe('expiry', () => {
  it('the oldest points are spent first; expired ones cannot be spent and are written off once', async () => {
    const v = await villager();
    await grant(v, 30, '旧积分');
    await grant(v, 50, '新积分');
    // age the first lot: earned long ago, its last day yesterday
    const lots = await db()
      .select({ id: pointsRecord.id, points: pointsRecord.points })
      .from(pointsRecord)
      .where(eq(pointsRecord.villagerId, v))
      .orderBy(pointsRecord.id);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await db()
      .update(pointsRecord)
      .set({ recordDate: '2025-01-01', expiresOn: yesterday })
      .where(eq(pointsRecord.id, String(lots[0].id)));
    // of 80, the 30 past their day are not spendable
    const g = await goods(10, 60);
    const refused = await exchange(v, g);
    expect(refused.json().msg).toBe('积分余额不足(可用 50 分)');
    expect(await expirePoints(db())).toBeGreaterThanOrEqual(1);
    expect(await expirePoints(db())).toBe(0);
    expect(await balance(v)).toBe(50);
    expect(await ledgerAgrees(v)).toBe(50);

    // spending takes the lot that expires first: a lot ending next month before one that never ends
    await grant(v, 20, '第三批');
    const [, newer, third] = await db()
      .select({ id: pointsRecord.id })
      .from(pointsRecord)
      .where(and(eq(pointsRecord.villagerId, v), sql`${pointsRecord.points} > 0`))
      .orderBy(pointsRecord.id);
    const soon = pointsExpireOn(today(), { kind: 'months', months: 1 });
    await db()
      .update(pointsRecord)
      .set({ expiresOn: soon })
      .where(eq(pointsRecord.id, String(third.id)));
    await grant(v, -25, '扣减');
    const left = await db()
      .select({ id: pointsRecord.id, remaining: pointsRecord.remaining })
      .from(pointsRecord)
      .where(and(eq(pointsRecord.villagerId, v), sql`${pointsRecord.points} > 0`))
      .orderBy(pointsRecord.id);
    const remaining = new Map(left.map((l) => [String(l.id), Number(l.remaining)]));
    expect(remaining.get(String(third.id))).toBe(0);
    expect(remaining.get(String(newer.id))).toBe(45);
  });
});

describe('the village ranking reads the ledger', () => {
  it('a score record is a credit of the same account; editing reverses it; removing reverses it', async () => {
    const v = await villager();
    const rec = await post('/scoreRank/submit', {
      villagerId: v,
      ruleId: '1190000000000900001',
      recordDate: today(),
    });
    expect(rec.statusCode, rec.body).toBe(200);
    const id = rec.json().data.id;
    const points = rec.json().data.points as number;
    expect(await balance(v)).toBe(points);
    expect((await post(`/scoreRank/remove?ids=${id}`)).statusCode).toBe(200);
    expect(await balance(v)).toBe(0);
    expect(await ledgerAgrees(v)).toBe(0);
  });
});

describe('rankings', () => {
  it('places are dense: equal balances share a place and the next follows', async () => {
    const res = await get('/points/account/page?current=1&size=50');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data.records as { balance: number; rank: number }[];
    expect(rows.length).toBeGreaterThan(2);
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1], rows[i]];
      expect(b.rank).toBe(a.balance === b.balance ? a.rank : a.rank + 1);
    }
    // the accounts are the server's: never written through the API
    expect((await post('/points/account/submit', { balance: 1000 })).statusCode).toBe(403);
  });
});

describe('attacks', () => {
  it('another tenant reaches no row, code or villager of this one', async () => {
    const v = await villager();
    await grant(v, 100);
    const g = await goods(5, 10);
    const ex = (await exchange(v, g)).json().data;
    const { code } = (await get(`/exchangeList/qrcode?id=${ex.id}`)).json().data;
    expect((await get(`/exchangeList/qrcode?id=${ex.id}`, foreign)).statusCode).toBe(404);
    expect((await post('/exchangeList/verify', { code }, foreign)).statusCode).toBe(404);
    expect((await post('/exchangeList/cancel', { id: ex.id, reason: 'x' }, foreign)).statusCode).toBe(404);
    expect((await get(`/villager/wx/points?villagerId=${v}`, foreign)).statusCode).toBe(404);
    expect((await grant(v, 100, '外村发放', foreign)).statusCode).toBe(400);
    expect((await exchange(v, g, 1, foreign)).statusCode).toBe(400);
    expect(await balance(v)).toBe(90);
  });

  it('a user without the button is refused on the server, whatever the browser hides', async () => {
    const role = await makeRole(db(), '000000', 'mall-viewer');
    await grantCodes(db(), role, ['exchange_list', 'points_record', 'points_deed', 'points_rule']);
    const viewer = (await signedInUser(s, 'mallViewer', [role])).token;
    const v = await villager();
    expect((await grant(v, 100, '越权', viewer)).statusCode).toBe(403);
    expect((await post('/exchangeList/verify', { code: 'ABCDEFGHJK' }, viewer)).statusCode).toBe(403);
    expect((await post('/points/deed/approve', { id: '1' }, viewer)).statusCode).toBe(403);
    expect((await get(`/points/rule/switch?id=${MALL_DEMO.ruleId}`, viewer)).statusCode).toBe(403);
    expect((await exchange(v, MALL_DEMO.goodsId, 1, viewer)).statusCode).toBe(403);
  });

  it('bad input is a 400, never a 500', async () => {
    const v = await villager();
    for (const url of [
      `/points/record/sub?villagerId=${v}&points=abc&reason=x`,
      `/points/record/sub?villagerId=${v}&points=5`,
      `/points/record/sub?villagerId=1;drop&points=5&reason=x`,
      `/points/record/sub?villagerId=${v}&points=0&reason=x`,
      '/points/rule/switch?id=abc',
      '/exchangeList/qrcode?id=-1',
      `/villager/wx/points?villagerId=${v}&extra=1`,
    ])
      expect((await get(url)).statusCode, url).toBe(400);
    expect((await exchange(v, MALL_DEMO.goodsId, 0)).statusCode).toBe(400);
    expect((await exchange(v, MALL_DEMO.goodsId, -3)).statusCode).toBe(400);
    expect((await post('/exchangeList/verify', { code: 'x'.repeat(41) })).statusCode).toBe(400);
    // nothing was paid for any of it
    expect(await balance(v)).toBe(0);
    // the log never shows a redemption code
    expect(s.logs.join('')).not.toMatch(/"redeemCode":"[0-9A-Z]{10}"/);
  });
});
