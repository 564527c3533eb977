import { RELIEF_DEMO, RELIEF_STAGE, type ReliefOverview } from '@smart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preventionPoverty } from '../src/modules/relief/tables';
import { villager } from '../src/modules/village/tables';
import { grantCodes, makeRole, otherTenantAdmin, serviceCalls, signedInUser } from './fixtures';
import { kit, type Person, until } from './flow-kit';
import { auth, signIn, startTestServer, type TestServer } from './harness';

/**
 * Poverty relief: the identification runs on the workflow engine (village review, a public notice whose
 * clock is a durable timer — one second here through RELIEF_NOTICE_DURATION —, the township's decision),
 * moving the household's stage; the fifteen-day clock flags an overdue case; risk removal; the households
 * without a measure; the public notice export masks personal details; the overview counts what the rows say.
 */
let s: TestServer;
let token: string;
let other: string;
const k = kit(() => s);
let reviewer: Person;
let township: Person;

beforeAll(async () => {
  s = await startTestServer({ RELIEF_NOTICE_DURATION: 'PT1S', FLOW_TIMER_INTERVAL_MS: '50' });
  token = (await signIn(s)).access_token;
  ({
    people: { reviewer, township },
  } = await k.setup(['reviewer', 'township']));
  other = await otherTenantAdmin(s, '200021', '防返贫他村', 'reliefOther');
});
afterAll(() => s.close());

const API = '/api/dfem-hope-manage';
const { get, post } = serviceCalls(
  () => s,
  API,
  () => token,
);

const DAY = 86_400_000;
const today = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
const daysAgo = (n: number) =>
  new Date(Date.parse(`${today()}T00:00:00Z`) - n * DAY).toISOString().slice(0, 10);

let households = 0;
/** A household applying today (or `applied` days ago), waiting for the village's review. */
async function apply(applied = 0, extra: Record<string, unknown> = {}) {
  const res = await post('/preventionPoverty/submit', {
    householderId: RELIEF_DEMO.villagerId,
    householdNo: `T${String(++households).padStart(4, '0')}`,
    monitorKind: '3',
    riskKinds: '1,5',
    source: '1',
    familySize: 4,
    applyDate: daysAgo(applied),
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return String(res.json().data.id);
}
const household = async (id: string) => (await get(`/preventionPoverty/detail?id=${id}`)).json().data;

describe('identification on the workflow engine', () => {
  it('review → a public notice of its configured length → township identification; each step moves the stage', async () => {
    const id = await apply();
    expect((await household(id)).stage).toBe(RELIEF_STAGE.villageReview);
    const started = await post('/preventionPoverty/identify', {
      id,
      taskUser: reviewer.id,
      townshipUser: township.id,
    });
    expect(started.statusCode, started.body).toBe(200);
    const piid = started.json().data.processInstanceId as string;
    expect((await household(id)).processInstanceId).toBe(piid);
    // started once only
    expect(
      (await post('/preventionPoverty/identify', { id, taskUser: reviewer.id, townshipUser: township.id }))
        .statusCode,
    ).toBe(409);

    expect(await k.todoNames(reviewer, piid)).toEqual(['村级评议']);
    await k.complete(reviewer, piid, '村级评议');
    // the notice: from today, until the notice's duration has passed; both clocks answered
    const noticed = await household(id);
    expect(noticed.stage).toBe(RELIEF_STAGE.notice);
    expect(noticed.noticeStart).toBe(today());
    expect(noticed.noticeEnd).toBe(today());
    expect(noticed.noticeDaysLeft).toBe(0);
    expect(noticed.identifyDeadline).toBe(
      new Date(Date.parse(`${today()}T00:00:00Z`) + 15 * DAY).toISOString().slice(0, 10),
    );
    expect(noticed.identifyDaysLeft).toBe(15);
    expect(noticed.overdue).toBe(false);
    // nothing for the township until the notice's timer has fired
    expect(await k.todoNames(township, piid)).toEqual([]);
    expect(await until(async () => (await k.todoNames(township, piid)).length === 1)).toBe(true);
    expect((await household(id)).stage).toBe(RELIEF_STAGE.township);

    await k.complete(township, piid, '乡镇认定');
    const identified = await household(id);
    expect(identified.stage).toBe(RELIEF_STAGE.monitored);
    expect(identified.identifyDate).toBe(today());
    expect(identified.identifyDaysLeft).toBeNull();
    expect(await k.state({ id: '', token }, piid)).toBe('finished');
  });

  it('refused at the village review: not identified, the process ends', async () => {
    const id = await apply();
    const piid = (
      await post('/preventionPoverty/identify', { id, taskUser: reviewer.id, townshipUser: township.id })
    ).json().data.processInstanceId as string;
    const [task] = await k.rows(reviewer, 'todo-list', piid);
    const res = await k.call(reviewer.token, 'POST', '/api/dfem-flow/work/complete-task', {
      taskId: task.taskId,
      flag: 'no',
      comment: '家庭收入稳定,不符合条件',
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await household(id);
    expect(row.stage).toBe(RELIEF_STAGE.notIdentified);
    expect(row.identifyDate).toBe(today());
  });

  it('asks for live users of the tenant and a household of its own', async () => {
    const id = await apply();
    const res = await post('/preventionPoverty/identify', { id, taskUser: '1', townshipUser: township.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('taskUser');
    const foreign = await post(
      '/preventionPoverty/identify',
      { id, taskUser: reviewer.id, townshipUser: township.id },
      other,
    );
    expect(foreign.statusCode).toBe(404);
  });

  it('an application past the township’s fifteen days is flagged overdue, in the list and the overview', async () => {
    const id = await apply(20);
    const list = (await get('/preventionPoverty/page?current=1&size=100')).json().data.records;
    const row = list.find((r: { id: string }) => r.id === id);
    expect(row).toMatchObject({ overdue: true, identifyDaysLeft: -5, stage: RELIEF_STAGE.villageReview });
    const within = list.find((r: { id: string; stage: string }) => r.id !== id && r.stage === '1');
    expect(within?.overdue).toBe(false);
    const overview = (await get('/reliefOverview/statistics')).json().data as ReliefOverview;
    const [counted] = await s.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(preventionPoverty)
      .where(
        sql`${preventionPoverty.tenantId} = '000000' and ${preventionPoverty.isDeleted} = 0
          and ${preventionPoverty.stage} in ('1', '2', '3') and ${preventionPoverty.applyDate} + 15 < ${today()}::date`,
      );
    expect(overview.overdue).toBeGreaterThanOrEqual(1);
    expect(overview.overdue).toBe(Number(counted.n));
  });
});

describe('after identification', () => {
  it('risk removal needs a monitored household, a day between identification and today, and a reason', async () => {
    const id = await apply();
    expect(
      (
        await post('/preventionPoverty/remove-risk', {
          id,
          riskRemovedDate: today(),
          riskRemovedReason: '稳定',
        })
      ).statusCode,
    ).toBe(409);
    const demo = RELIEF_DEMO.householdId;
    const tomorrow = new Date(Date.parse(`${today()}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
    const future = await post('/preventionPoverty/remove-risk', {
      id: demo,
      riskRemovedDate: tomorrow,
      riskRemovedReason: '稳定',
    });
    expect(future.statusCode).toBe(400);
    expect(future.json().data.field).toBe('riskRemovedDate');
    const early = await post('/preventionPoverty/remove-risk', {
      id: demo,
      riskRemovedDate: '2000-01-01',
      riskRemovedReason: '稳定',
    });
    expect(early.statusCode).toBe(400);
    expect(
      (
        await post('/preventionPoverty/remove-risk', {
          id: demo,
          riskRemovedDate: today(),
          riskRemovedReason: '',
        })
      ).statusCode,
    ).toBe(400);
    const done = await post('/preventionPoverty/remove-risk', {
      id: demo,
      riskRemovedDate: today(),
      riskRemovedReason: '务工收入稳定',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await household(demo)).toMatchObject({
      stage: RELIEF_STAGE.riskRemoved,
      riskRemovedDate: today(),
      riskRemovedReason: '务工收入稳定',
    });
  });

  it('a measure is for a monitored household; the ones without a measure under way are listed', async () => {
    const waiting = await apply();
    const refused = await post('/supportingMeasures/submit', {
      householdId: waiting,
      measureKind: '2',
      name: '公益性岗位',
      amount: '500.00',
      startDate: today(),
      status: '1',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data.field).toBe('householdId');

    const without = (await get('/preventionPoverty/without-measure')).json().data as { id: string }[];
    expect(without.length).toBeGreaterThan(0);
    const target = without[0].id;
    const measure = await post('/supportingMeasures/submit', {
      householdId: target,
      measureKind: '2',
      name: '公益性岗位',
      amount: '500.00',
      startDate: today(),
      status: '1',
    });
    expect(measure.statusCode, measure.body).toBe(200);
    const after = (await get('/preventionPoverty/without-measure')).json().data as { id: string }[];
    expect(after.map((r) => r.id)).not.toContain(target);
    // another tenant sees none of them
    expect((await get('/preventionPoverty/without-measure', other)).json().data).toEqual([]);
  });

  it('a household answers its latest per-capita income and the line the tenant set for that year', async () => {
    const list = (await get('/preventionPoverty/page?current=1&size=100')).json().data.records as Record<
      string,
      unknown
    >[];
    const withIncome = list.find((r) => r.perCapitaIncome !== null && r.perCapitaIncome !== undefined);
    expect(withIncome).toBeDefined();
    const year = new Date().getFullYear() - 1;
    expect(Number(withIncome?.incomeYear)).toBe(year);
    expect(Number(withIncome?.incomeLine)).toBe(7200);
  });
});

describe('public notice export', () => {
  async function sheet(url: string) {
    const res = await s.app.inject({ method: 'GET', url: `${API}${url}`, headers: auth(token) });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = book.worksheets[0];
    const header = (ws.getRow(1).values as unknown[]).map(String);
    const rows: Record<string, string>[] = [];
    ws.eachRow((row, i) => {
      if (i === 1) return;
      const o: Record<string, string> = {};
      (row.values as unknown[]).forEach((v, j) => {
        o[header[j]] = v === null || v === undefined ? '' : String(v);
      });
      rows.push(o);
    });
    return { header, rows };
  }

  it('masks ID numbers, phones and bank accounts and leaves out the family’s situation; the export keeps them', async () => {
    const [head] = await s.database.db
      .select({ idCard: villager.idCard })
      .from(villager)
      .where(and(eq(villager.id, RELIEF_DEMO.villagerId)));
    await apply(0, {
      householdNo: 'MASK01',
      phone: '13912345678',
      bankAccount: '6222021234567890123',
      situation: '患慢性病',
    });
    const full = await sheet('/preventionPoverty/excel/export?householdNo=MASK01');
    expect(full.rows).toHaveLength(1);
    const text = JSON.stringify(full.rows[0]);
    expect(text).toContain('13912345678');
    expect(text).toContain('6222021234567890123');
    expect(text).toContain(String(head.idCard));
    expect(text).toContain('患慢性病');

    const notice = await sheet('/preventionPoverty/excel/notice?householdNo=MASK01');
    expect(notice.rows).toHaveLength(1);
    const shown = JSON.stringify(notice.rows[0]);
    expect(shown).toContain('139****5678');
    expect(shown).toContain('***************0123');
    expect(shown).toContain(`${String(head.idCard).slice(0, 6)}********${String(head.idCard).slice(-4)}`);
    expect(shown).not.toContain(String(head.idCard));
    expect(shown).not.toContain('13912345678');
    expect(shown).not.toContain('患慢性病');
    expect(notice.header.join()).not.toContain('家庭情况');
  });

  it('needs the export permission', async () => {
    const role = await makeRole(s.database.db, '000000', 'reliefViewer');
    await grantCodes(s.database.db, role, ['prevention_poverty']);
    const viewer = (await signedInUser(s, 'reliefViewer', [role])).token;
    const res = await s.app.inject({
      method: 'GET',
      url: `${API}/preventionPoverty/excel/notice`,
      headers: auth(viewer),
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('as an attacker would try it', () => {
  it('a clerk who may only read the list cannot start an identification, remove a risk or open the overview', async () => {
    const id = await apply();
    const role = await makeRole(s.database.db, '000000', 'reliefClerk');
    await grantCodes(s.database.db, role, ['prevention_poverty', 'prevention_poverty_view']);
    const clerk = (await signedInUser(s, 'reliefClerk', [role])).token;
    expect((await get('/preventionPoverty/page?current=1&size=1', clerk)).statusCode).toBe(200);
    expect(
      (
        await post(
          '/preventionPoverty/identify',
          { id, taskUser: reviewer.id, townshipUser: township.id },
          clerk,
        )
      ).statusCode,
    ).toBe(403);
    expect((await household(id)).processInstanceId).toBeFalsy();
    expect(
      (
        await post(
          '/preventionPoverty/remove-risk',
          { id: RELIEF_DEMO.householdId, riskRemovedDate: today(), riskRemovedReason: '越权' },
          clerk,
        )
      ).statusCode,
    ).toBe(403);
    expect((await get('/reliefOverview/statistics', clerk)).statusCode).toBe(403);
    // without the list's own code even the view of households without a measure is refused
    const none = await makeRole(s.database.db, '000000', 'reliefNone');
    const outsider = (await signedInUser(s, 'reliefNone', [none])).token;
    expect((await get('/preventionPoverty/without-measure', outsider)).statusCode).toBe(403);
  });

  it('another tenant reaches no household by id: no identification, no risk removal, a stage unchanged', async () => {
    const [monitored] = (await get('/preventionPoverty/page?current=1&size=100&stage=4')).json().data.records;
    const removal = await post(
      '/preventionPoverty/remove-risk',
      { id: monitored.id, riskRemovedDate: today(), riskRemovedReason: '他村' },
      other,
    );
    expect(removal.statusCode).toBe(404);
    expect((await household(monitored.id)).stage).toBe(RELIEF_STAGE.monitored);
    // a percent-encoded or padded id is not another way in
    expect(
      (
        await post('/preventionPoverty/remove-risk', {
          id: ` ${monitored.id}`,
          riskRemovedDate: today(),
          riskRemovedReason: 'x',
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('overview', () => {
  it('counts what the rows say, and nothing of another tenant', async () => {
    const o = (await get('/reliefOverview/statistics')).json().data as ReliefOverview;
    const rows = await s.database.db
      .select({ stage: preventionPoverty.stage, kind: preventionPoverty.monitorKind })
      .from(preventionPoverty)
      .where(and(eq(preventionPoverty.tenantId, '000000'), eq(preventionPoverty.isDeleted, 0)));
    expect(o.households).toBe(rows.length);
    expect(o.monitored).toBe(rows.filter((r) => r.stage === RELIEF_STAGE.monitored).length);
    expect(o.byKind.reduce((n, e) => n + e.value, 0)).toBe(rows.length);
    expect(o.byStage.find((e) => e.key === RELIEF_STAGE.riskRemoved)?.value).toBe(
      rows.filter((r) => r.stage === RELIEF_STAGE.riskRemoved).length,
    );
    expect(o.byRisk.map((e) => e.name)).toContain('因病');
    expect(o.amountByMeasure.length).toBe(8);
    expect(o.measureAmount).toBeGreaterThan(0);
    const english = (await get('/reliefOverview/statistics', token, 'en')).json().data as ReliefOverview;
    expect(english.byRisk.map((e) => e.name)).toContain('Illness');
    const foreign = (await get('/reliefOverview/statistics', other)).json().data as ReliefOverview;
    expect(foreign).toMatchObject({ households: 0, monitored: 0, overdue: 0, measureAmount: 0 });
  });

  it('未落实措施 counts exactly the households the without-measure list shows, before and after a measure', async () => {
    const counted = async () =>
      ((await get('/reliefOverview/statistics')).json().data as ReliefOverview).withoutMeasure;
    const listed = async () =>
      (await get('/preventionPoverty/without-measure')).json().data as { id: string }[];
    const before = await listed();
    expect(before.length).toBeGreaterThan(0);
    expect(await counted()).toBe(before.length);
    const measure = await post('/supportingMeasures/submit', {
      householdId: before[0].id,
      measureKind: '3',
      name: '产业帮扶',
      amount: '800.00',
      startDate: today(),
      status: '1',
    });
    expect(measure.statusCode, measure.body).toBe(200);
    expect((await listed()).length).toBe(before.length - 1);
    expect(await counted()).toBe(before.length - 1);
  });
});

describe('the identification process', () => {
  it('cannot be started as a generic application (it acts on a household)', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/dfem-flow/process/apply/start-process',
      headers: auth(token),
      payload: {
        processDefinitionId: 'relief_identification:1:seed0001',
        title: '无农户',
        taskUser: reviewer.id,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('processDefinitionId');
  });
});
