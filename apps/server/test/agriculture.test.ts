import {
  AGRICULTURE_DEMO,
  type AgriIncomeYear,
  type AgriYearCount,
  checkField,
  cooperationResource,
  creditCodeCheckChar,
  creditCodeProblem,
  type PlotHistoryItem,
  polygonMu,
} from '@smart/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cooperation, plot } from '../src/modules/agriculture/tables';
import { areaServer, grantCodes, listedRows, makeRole, serviceCalls, signedInUser } from './fixtures';
import type { TestServer } from './harness';

/**
 * Smart agriculture: the credit code's check (GB 32100), a plot's area from its polygon and its removal with
 * a reason, the family's route names (upsert, delete/{id}, delete/remark, del/{id}) behind the same codes
 * and constraint as submit and remove, plan steps ticked and un-ticked by records, the overdue flag, a
 * plot's history within the caller's scope, seedlings' stock, and the home-page figures.
 */
let s: TestServer;
let token: string;
let other: string;
beforeAll(async () => {
  ({ s, token, other } = await areaServer(['200031', '农业他村', 'agriOther']));
});
afterAll(() => s.close());

const API = '/api/dfem-hope-manage';
const { get, post } = serviceCalls(
  () => s,
  API,
  () => token,
);

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const year = Number(day(0).slice(0, 4));
/** a square of about `side` metres west of Changsha */
const square = (lng: number, lat: number, side = 80) => {
  const dLng = side / (111_320 * Math.cos((lat * Math.PI) / 180));
  const dLat = side / 110_574;
  return [
    [lng, lat],
    [lng + dLng, lat],
    [lng + dLng, lat + dLat],
    [lng, lat + dLat],
  ];
};
let n = 0;
const plotBody = (over: Record<string, unknown> = {}) => ({
  name: `测试地块${++n}`,
  polygon: JSON.stringify(square(112.91, 28.21)),
  crop: '1',
  soilType: '3',
  ownerKind: '1',
  ownerVillagerId: AGRICULTURE_DEMO.villagerId,
  ...over,
});

describe('unified social credit code (GB 32100)', () => {
  const field = cooperationResource.fields.find((f) => f.name === 'creditCode')!;
  const first17 = '93430121MA4P8K9Q2';
  const valid = first17 + creditCodeCheckChar(first17);
  const wrong = first17 + (valid.endsWith('0') ? '1' : '0');
  const body = (creditCode: string) => ({
    name: `测试合作社${++n}`,
    kind: '1',
    creditCode,
    legalPerson: '张三',
    certifications: '1,3',
    certifiedYear: 2024,
  });

  it('the shared rule knows real codes and says what is wrong in both languages', () => {
    expect(creditCodeProblem('91350100M000100Y43')).toBeNull();
    expect(creditCodeProblem('91110000600037341L')).toBeNull();
    expect(creditCodeProblem('911100001000011765')).toBe('check');
    expect(creditCodeProblem('91350100M000100Y4')).toBe('format');
    expect(creditCodeProblem('91350100M00010OY43')).toBe('format'); // O is never used
    expect(checkField(field, wrong)).toEqual({
      zh: '统一社会信用代码校验位不正确',
      en: 'Unified social credit code has a wrong check character',
    });
  });

  it('a valid code is saved; a wrong check character is a 400 naming the field, nothing written', async () => {
    const ok = await post('/cooperation/submit', body(valid));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.creditCode).toBe(valid);
    const count = async () =>
      (await s.database.db.select({ n: sql<number>`count(*)::int` }).from(cooperation))[0].n;
    const before = await count();
    const bad = await post('/cooperation/submit', body(wrong));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.field).toBe('creditCode');
    expect(bad.json().msg).toContain('校验位不正确');
    const en = await post('/cooperation/submit', body(wrong), token, 'en');
    expect(en.json().msg).toContain('wrong check character');
    expect(await count()).toBe(before);
    // the same code twice is refused
    const again = await post('/cooperation/submit', body(valid));
    expect(again.statusCode).toBe(400);
    expect(again.json().data.field).toBe('creditCode');
  });
});

describe('plots', () => {
  it('upsert creates and updates; the area in 亩 is the server’s, from the polygon', async () => {
    const polygon = square(112.92, 28.2, 100);
    const created = await post(
      '/smartPlant/plot/upsert',
      plotBody({ polygon: JSON.stringify(polygon), area: 1 }),
    );
    expect(created.statusCode, created.body).toBe(200);
    const row = created.json().data;
    // 100 m × 100 m = 10 000 m² = 15 亩
    expect(Number(row.area)).toBeCloseTo(polygonMu(polygon)!, 2);
    expect(Number(row.area)).toBeGreaterThan(14.8);
    expect(Number(row.area)).toBeLessThan(15.2);
    const bigger = square(112.92, 28.2, 200);
    const updated = await post('/smartPlant/plot/upsert', { id: row.id, polygon: JSON.stringify(bigger) });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(Number(updated.json().data.area)).toBeCloseTo(polygonMu(bigger)!, 2);
    expect(updated.json().data.name).toBe(row.name);
    const listed = listedRows((await get('/smartPlant/plot/list?current=1&size=200')).json().data);
    expect(listed.map((r) => r.id)).toContain(row.id);
  });

  it('a household plot names its villager; a cooperative’s its cooperative', async () => {
    const res = await post('/smartPlant/plot/upsert', plotBody({ ownerVillagerId: '' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('ownerVillagerId');
    const coop = await post(
      '/smartPlant/plot/upsert',
      plotBody({ ownerKind: '2', cooperationId: AGRICULTURE_DEMO.cooperationId }),
    );
    expect(coop.statusCode, coop.body).toBe(200);
    // the household named beside it is cleared: a cooperative holds it
    expect(coop.json().data.ownerVillagerId).toBeNull();
  });

  it('delete/remark keeps the reason on the removed row, which is gone from the page', async () => {
    const row = (await post('/smartPlant/plot/upsert', plotBody())).json().data;
    const noReason = await get(`/smartPlant/plot/delete/remark?id=${row.id}&remark=`);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().data.field).toBe('remark');
    const gone = await get(
      `/smartPlant/plot/delete/remark?id=${row.id}&remark=${encodeURIComponent('改建水渠')}`,
    );
    expect(gone.statusCode, gone.body).toBe(200);
    const page = listedRows((await get('/smartPlant/plot/page?current=1&size=200')).json().data);
    expect(page.map((r) => r.id)).not.toContain(row.id);
    const [kept] = await s.database.db
      .select({ remark: plot.deleteRemark, isDeleted: plot.isDeleted })
      .from(plot)
      .where(eq(plot.id, row.id));
    expect(kept).toEqual({ remark: '改建水渠', isDeleted: 1 });
  });

  it('delete/{id} removes one plot; a padded or foreign id is refused, another tenant’s is not found', async () => {
    const row = (await post('/smartPlant/plot/upsert', plotBody())).json().data;
    expect((await get('/smartPlant/plot/delete/abc')).statusCode).toBe(400);
    expect((await get(`/smartPlant/plot/delete/${row.id}`, other)).statusCode).toBe(404);
    expect((await get(`/smartPlant/plot/delete/remark?id=${row.id}&remark=x`, other)).statusCode).toBe(404);
    expect((await post('/smartPlant/plot/upsert', { ...plotBody(), id: row.id }, other)).statusCode).toBe(
      404,
    );
    expect((await get(`/smartPlant/plot/detail?id=${row.id}`)).statusCode).toBe(200);
    expect((await get(`/smartPlant/plot/delete/${row.id}`)).statusCode).toBe(200);
    expect((await get(`/smartPlant/plot/detail?id=${row.id}`)).statusCode).toBe(404);
    expect((await get(`/smartPlant/plot/delete/${row.id}`)).statusCode).toBe(404);
  });

  it('the family’s route names need the codes of submit and remove', async () => {
    const role = await makeRole(s.database.db, '000000', 'agriLimited');
    const limited = (await signedInUser(s, 'agriLimited', [role])).token;
    const row = (await post('/smartPlant/plot/upsert', plotBody())).json().data;
    await grantCodes(s.database.db, role, ['smart_plot', 'smart_plot_view']);
    expect((await post('/smartPlant/plot/upsert', plotBody(), limited)).statusCode).toBe(403);
    expect((await post('/smartPlant/plot/upsert', { id: row.id, name: 'x' }, limited)).statusCode).toBe(403);
    expect((await get(`/smartPlant/plot/delete/${row.id}`, limited)).statusCode).toBe(403);
    expect((await get(`/smartPlant/plot/delete/remark?id=${row.id}&remark=x`, limited)).statusCode).toBe(403);
    // refused before anything is said about the query
    expect((await get(`/smartPlant/plot/delete/remark?id=${row.id}&remark=`, limited)).statusCode).toBe(403);
    expect((await get(`/seedling/del/${row.id}`, limited)).statusCode).toBe(403);
    expect((await get(`/smartPlant/plan/delete?ids=${AGRICULTURE_DEMO.planId}`, limited)).statusCode).toBe(
      403,
    );
    expect(
      (await get(`/smartPlant/plan/delete/planDetail?id=${AGRICULTURE_DEMO.planDetailId}`, limited))
        .statusCode,
    ).toBe(403);
    await grantCodes(s.database.db, role, ['smart_plot', 'smart_plot_add', 'smart_plot_delete']);
    expect((await post('/smartPlant/plot/upsert', plotBody(), limited)).statusCode).toBe(200);
    expect((await post('/smartPlant/plot/upsert', { id: row.id, name: 'x' }, limited)).statusCode).toBe(403);
    expect((await get(`/smartPlant/plot/delete/${row.id}`, limited)).statusCode).toBe(200);
  });
});

describe('plans and records', () => {
  let plotId: string;
  let planId: string;
  const stepsOf = async (id: string) =>
    (await get(`/smartPlant/plan/detail?id=${id}`)).json().data.steps as {
      id: string;
      operation: string;
      plannedDate: string;
      doneDate: string | null;
      recordId: string | null;
      overdue: boolean;
    }[];

  beforeAll(async () => {
    plotId = (await post('/smartPlant/plot/upsert', plotBody())).json().data.id;
    const res = await post('/smartPlant/plan/upsert', {
      name: '测试计划',
      plotId,
      year,
      season: '1',
      crop: '1',
      // the family's client sends the steps as an array
      steps: [
        { operation: '3', plannedDate: `${year}-01-02`, content: '基肥' },
        { operation: '3', plannedDate: `${year}-01-01`, content: '底肥' },
        { operation: '4', plannedDate: day(-3) < `${year}-01-01` ? `${year}-01-01` : day(-3) },
        { operation: '6', plannedDate: `${year + 1}-12-01` },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    planId = res.json().data.id;
    expect(res.json().data.steps).toHaveLength(4);
  });

  it('a step past its day and not done is overdue; one still to come is not', async () => {
    const steps = await stepsOf(planId);
    expect(steps.map((x) => x.plannedDate)).toEqual([...steps.map((x) => x.plannedDate)].sort());
    expect(steps.find((x) => x.operation === '4')?.overdue).toBe(
      day(-3) >= `${year}-01-01` || day(0) > `${year}-01-01`,
    );
    expect(steps.find((x) => x.operation === '6')?.overdue).toBe(false);
    const detail = await get(`/smartPlant/planDetail/detail?id=${steps[0].id}`);
    expect(detail.json().data.overdue).toBe(true);
  });

  it('a record ticks the earliest open step of its operation; its removal un-ticks it', async () => {
    const record = await post('/smartPlant/record/upsert', {
      plotId,
      operation: '3',
      workDate: `${year}-01-05`,
      operatorId: AGRICULTURE_DEMO.villagerId,
      inputs: '有机肥 200 千克/亩',
    });
    expect(record.statusCode, record.body).toBe(200);
    const recordId = record.json().data.id;
    let steps = await stepsOf(planId);
    const first = steps.find((x) => x.plannedDate === `${year}-01-01`)!;
    expect(first).toMatchObject({ doneDate: `${year}-01-05`, recordId, overdue: false });
    expect(steps.find((x) => x.plannedDate === `${year}-01-02`)).toMatchObject({
      doneDate: null,
      recordId: null,
    });
    expect(record.json().data.planDetailId).toBe(first.id);

    // a second record of the same operation ticks the next step
    const second = await post('/smartPlant/record/upsert', {
      plotId,
      operation: '3',
      workDate: `${year}-01-06`,
      operatorId: AGRICULTURE_DEMO.villagerId,
    });
    steps = await stepsOf(planId);
    expect(steps.find((x) => x.plannedDate === `${year}-01-02`)?.recordId).toBe(second.json().data.id);

    // a record of another year ticks nothing
    const other = await post('/smartPlant/record/upsert', {
      plotId,
      operation: '4',
      workDate: `${year - 1}-06-01`,
      operatorId: AGRICULTURE_DEMO.villagerId,
    });
    expect(other.json().data.planDetailId).toBeNull();

    // removing the first record un-ticks its step (GET delete?ids=)
    expect((await get(`/smartPlant/record/delete?ids=${recordId}`)).statusCode).toBe(200);
    steps = await stepsOf(planId);
    expect(steps.find((x) => x.plannedDate === `${year}-01-01`)).toMatchObject({
      doneDate: null,
      recordId: null,
    });

    // changing a record's operation moves its tick
    const moved = await post('/smartPlant/record/upsert', {
      id: second.json().data.id,
      operation: '6',
      workDate: `${year}-10-01`,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    steps = await stepsOf(planId);
    expect(steps.find((x) => x.plannedDate === `${year}-01-02`)?.recordId).toBeNull();
    expect(steps.find((x) => x.operation === '6')?.recordId).toBe(second.json().data.id);
  });

  it('upsert with the steps replaces them; delete/planDetail removes one step', async () => {
    const steps = await stepsOf(planId);
    const keep = steps.slice(0, 2).map(({ id, operation, plannedDate }) => ({ id, operation, plannedDate }));
    const res = await post('/smartPlant/plan/upsert', {
      id: planId,
      steps: [...keep, { operation: '5', plannedDate: `${year}-07-01` }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await stepsOf(planId);
    expect(after).toHaveLength(3);
    expect(after.map((x) => x.id)).toEqual(expect.arrayContaining(keep.map((x) => x.id)));
    // a bad step names its number
    const bad = await post('/smartPlant/plan/upsert', {
      id: planId,
      steps: [{ operation: '5', plannedDate: '2026-02-30' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.field).toBe('steps');
    expect(bad.json().msg).toContain('第1步');
    // another tenant's step is not found, and neither is another plan's step in this one
    const foreign = await post('/smartPlant/plan/upsert', {
      id: planId,
      steps: [{ id: AGRICULTURE_DEMO.planDetailId, operation: '1', plannedDate: `${year}-01-01` }],
    });
    expect(foreign.statusCode).toBe(400);
    expect((await get(`/smartPlant/plan/delete/planDetail?id=${after[2].id}`, other)).statusCode).toBe(404);
    expect((await get(`/smartPlant/plan/delete/planDetail?id=${after[2].id}`)).statusCode).toBe(200);
    expect(await stepsOf(planId)).toHaveLength(2);
    // removing the plan removes its steps
    expect((await get(`/smartPlant/plan/delete?ids=${planId}`)).statusCode).toBe(200);
    expect((await get(`/smartPlant/planDetail/detail?id=${after[0].id}`)).statusCode).toBe(404);
  });

  it('plot/history answers the plot’s records and steps in time order, within the caller’s scope', async () => {
    const res = await get(`/smartPlant/record/plot/history?plotId=${AGRICULTURE_DEMO.plotId}`);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().data as PlotHistoryItem[];
    expect(items.filter((i) => i.kind === 'record').length).toBeGreaterThanOrEqual(3);
    expect(items.filter((i) => i.kind === 'step').length).toBeGreaterThanOrEqual(5);
    expect(items.map((i) => i.date)).toEqual([...items.map((i) => i.date)].sort());
    expect(items.some((i) => i.kind === 'step' && i.overdue)).toBe(true);
    expect(items.find((i) => i.kind === 'record')?.operatorName).toBeTruthy();
    // another tenant: not found; a user without the records' code: 403; a bad id: 400
    expect(
      (await get(`/smartPlant/record/plot/history?plotId=${AGRICULTURE_DEMO.plotId}`, other)).statusCode,
    ).toBe(404);
    expect((await get('/smartPlant/record/plot/history?plotId=x')).statusCode).toBe(400);
    const role = await makeRole(s.database.db, '000000', 'agriNoRecords');
    await grantCodes(s.database.db, role, ['smart_plot']);
    const limited = (await signedInUser(s, 'agriNoRecords', [role])).token;
    expect(
      (await get(`/smartPlant/record/plot/history?plotId=${AGRICULTURE_DEMO.plotId}`, limited)).statusCode,
    ).toBe(403);
  });
});

describe('seedlings', () => {
  const body = (over: Record<string, unknown> = {}) => ({
    variety: '测试稻种',
    quantityIn: 100,
    quantityLeft: 40,
    unit: '2',
    receivedDate: day(-1),
    ...over,
  });

  it('list pages by page and size; upsert; never more left than received; del/{id}', async () => {
    const created = await post('/seedling/upsert', body());
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id;
    const over = await post('/seedling/upsert', { id, quantityLeft: 101 });
    expect(over.statusCode).toBe(400);
    expect(over.json().data.field).toBe('quantityLeft');
    expect((await post('/seedling/upsert', body({ quantityLeft: -1 }))).statusCode).toBe(400);
    const page = await get('/seedling/list?page=1&size=2');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.records).toHaveLength(2);
    expect(page.json().data.total).toBeGreaterThanOrEqual(4);
    expect((await get('/seedling/list?current=1&size=2')).statusCode).toBe(400);
    expect((await get(`/seedling/del/${id}`, other)).statusCode).toBe(404);
    expect((await get(`/seedling/del/${id}`)).statusCode).toBe(200);
    expect((await get(`/seedling/detail?id=${id}`)).statusCode).toBe(404);
  });
});

describe('home-page figures (common/index)', () => {
  it('year/cer counts certifications per year over the caller’s cooperatives', async () => {
    const res = await get('/common/index/year/cer');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as AgriYearCount[];
    // the demo: 2 certifications two years ago, 1 last year (and the test's own 2 in 2024)
    expect(rows.find((r) => r.year === year - 1)?.value).toBeGreaterThanOrEqual(1);
    expect(rows.find((r) => r.year === year - 2)?.value).toBeGreaterThanOrEqual(2);
    const foreign = (await get('/common/index/year/cer', other)).json().data as AgriYearCount[];
    expect(foreign).toEqual([]);
  });

  it('income/per answers per-capita income by year over the incomes the caller may read', async () => {
    const res = await get('/common/index/income/per');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as AgriIncomeYear[];
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.perCapita).toBeGreaterThan(0);
    expect((await get('/common/index/income/per', other)).json().data).toEqual([]);
    const role = await makeRole(s.database.db, '000000', 'agriNoFigures');
    await grantCodes(s.database.db, role, ['smart_plot']);
    const limited = (await signedInUser(s, 'agriNoFigures', [role])).token;
    expect((await get('/common/index/income/per', limited)).statusCode).toBe(403);
    expect((await get('/common/index/year/cer', limited)).statusCode).toBe(403);
  });

  it('output values export to Excel', async () => {
    const res = await get('/industryOutputValue/excel/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
  });
});
