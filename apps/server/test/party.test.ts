import { PARTY_DEMO, type PartyOverview, type ProbationDue } from '@smart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partyPairing, villagerToParty } from '../src/modules/party/tables';
import { villager } from '../src/modules/village/tables';
import { schema } from '../src/platform/db';
import { areaServer, grantCodes, makeRole, serviceCalls, signedInUser } from './fixtures';
import { auth, type TestServer } from './harness';

/** Party building: member rules, the probation reminder, the organisation tree, the overview, isolation. */
let s: TestServer;
let token: string;
let other: string;
beforeAll(async () => {
  ({ s, token, other } = await areaServer(['200011', '党建他村', 'partyOther']));
});
afterAll(() => s.close());

const API = '/api/dfem-hope-manage';
const { get, post } = serviceCalls(
  () => s,
  API,
  () => token,
);

/** A villager of tenant 000000 who is not yet a member. */
async function newVillager(name: string) {
  const res = await post('/villager/submit', {
    name,
    sex: '1',
    householdNo: 'P0001',
    relation: '1',
    villageGroup: '1',
    birthDate: '1990-03-01',
  });
  expect(res.statusCode, res.body).toBe(200);
  const [row] = await s.database.db
    .select({ id: villager.id })
    .from(villager)
    .where(and(eq(villager.name, name), eq(villager.tenantId, '000000')));
  return String(row.id);
}

const member = (villagerId: string, over: Record<string, unknown> = {}) => ({
  villagerId,
  memberType: '2',
  orgId: PARTY_DEMO.orgId,
  joinDate: '2026-01-10',
  probationEnd: '2027-01-10',
  ...over,
});

describe('members', () => {
  it('a probationary member without the day probation ends is refused, naming probationEnd', async () => {
    const vid = await newVillager('预备甲');
    const res = await post('/villagerToParty/submit', member(vid, { probationEnd: '' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ data: { field: 'probationEnd' }, msg: '预备党员须填写预备期满日期' });
    // a full member needs none
    expect(
      (await post('/villagerToParty/submit', member(vid, { memberType: '1', probationEnd: '' }))).statusCode,
    ).toBe(200);
  });

  it('a probation that ends before the joined date is refused', async () => {
    const vid = await newVillager('预备乙');
    const res = await post('/villagerToParty/submit', member(vid, { probationEnd: '2025-12-31' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('probationEnd');
  });

  it('an update that turns a member probationary needs the end date the row lacks', async () => {
    const vid = await newVillager('预备丙');
    expect(
      (await post('/villagerToParty/submit', member(vid, { memberType: '1', probationEnd: '' }))).statusCode,
    ).toBe(200);
    const [row] = await s.database.db
      .select({ id: villagerToParty.id })
      .from(villagerToParty)
      .where(eq(villagerToParty.villagerId, vid));
    const res = await post('/villagerToParty/submit', { id: String(row.id), memberType: '2' });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('probationEnd');
  });

  it('a villager is a member once: adding them again is refused, naming the member field, and the count stays', async () => {
    const [{ villagerId }] = await s.database.db
      .select({ villagerId: villagerToParty.villagerId })
      .from(villagerToParty)
      .where(and(eq(villagerToParty.tenantId, '000000'), eq(villagerToParty.isDeleted, 0)))
      .limit(1);
    const count = async () => (await get('/villagerToParty/page?current=1&size=1')).json().data.total;
    const before = await count();
    const again = await post(
      '/villagerToParty/submit',
      member(String(villagerId), { memberType: '1', probationEnd: '' }),
    );
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ data: { field: 'villagerId' }, msg: '党员已存在' });
    expect(await count()).toBe(before);
  });

  it('the member form’s villager picker offers only villagers who are not members yet', async () => {
    const members = new Set(
      (
        await s.database.db
          .select({ id: villagerToParty.villagerId })
          .from(villagerToParty)
          .where(and(eq(villagerToParty.tenantId, '000000'), eq(villagerToParty.isDeleted, 0)))
      ).map((r) => String(r.id)),
    );
    const pick = async (query: string) =>
      (
        await s.app.inject({ method: 'GET', url: `${API}/villager/select?${query}`, headers: auth(token) })
      ).json();
    const all = (await pick('size=200')).data as { id: string }[];
    expect(all.some((v) => members.has(v.id))).toBe(true);
    const offered = (await pick('size=200&unusedBy=villagerToParty.villagerId')).data as { id: string }[];
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.filter((v) => members.has(v.id))).toEqual([]);
    // only a field that is a unique key on its own, of a resource the caller may add to
    expect((await pick('unusedBy=villagerToParty.orgId')).code).toBe(400);
    expect((await pick('unusedBy=nothing.here')).code).toBe(400);
  });
});

describe('probation reminder', () => {
  it('has the demo party’s next probation to show, dated from today', async () => {
    const due = (await get('/villagerToParty/probation-due?days=30')).json().data as ProbationDue[];
    expect(due.some((d) => d.daysLeft === 25)).toBe(true);
  });

  it('lists a member due within N days, not one due later nor another tenant’s', async () => {
    const soon = await newVillager('将转正');
    const later = await newVillager('晚转正');
    const on = '2030-03-01';
    expect(
      (
        await post(
          '/villagerToParty/submit',
          member(soon, { joinDate: '2025-03-20', probationEnd: '2030-03-20' }),
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await post(
          '/villagerToParty/submit',
          member(later, { joinDate: '2025-06-01', probationEnd: '2030-06-01' }),
        )
      ).statusCode,
    ).toBe(200);
    const res = await get(`/villagerToParty/probation-due?days=30&on=${on}`);
    expect(res.statusCode, res.body).toBe(200);
    const due = res.json().data as ProbationDue[];
    const mine = due.find((d) => d.villagerId === soon);
    expect(mine).toMatchObject({ villagerName: '将转正', probationEnd: '2030-03-20', daysLeft: 19 });
    expect(due.some((d) => d.villagerId === later)).toBe(false);
    // another tenant sees none of them
    const foreign = await get(`/villagerToParty/probation-due?days=30&on=${on}`, other);
    expect(foreign.statusCode).toBe(200);
    expect(foreign.json().data).toEqual([]);
    // a wider window takes the later one in
    const wide = (await get(`/villagerToParty/probation-due?days=120&on=${on}`)).json()
      .data as ProbationDue[];
    expect(wide.some((d) => d.villagerId === later)).toBe(true);
    // an unknown key or a bad day is a 400
    expect((await get('/villagerToParty/probation-due?tenantId=200011')).statusCode).toBe(400);
    expect((await get('/villagerToParty/probation-due?on=2030-13-45')).statusCode).toBe(400);
  });

  it('posts one notice to the tenant’s notices listing them, once', async () => {
    const on = '2030-03-01';
    const first = await post(`/villagerToParty/probation-notice?days=30&on=${on}`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ created: true });
    const again = await post(`/villagerToParty/probation-notice?days=30&on=${on}`);
    expect(again.json().data).toMatchObject({ created: false, noticeId: first.json().data.noticeId });
    const [notice] = await s.database.db
      .select()
      .from(schema.notice)
      .where(eq(schema.notice.id, first.json().data.noticeId));
    expect(notice.tenantId).toBe('000000');
    expect(notice.content).toContain('将转正');
    // the notices screen lists it
    const listed = await s.app.inject({
      method: 'GET',
      url: `/api/dfem-desk/notice/list?title=${encodeURIComponent('预备党员转正提醒')}`,
      headers: auth(token),
    });
    expect(listed.json().data.records.some((r: { id: string }) => r.id === notice.id)).toBe(true);
  });

  it('is refused without the members code', async () => {
    const clerk = await makeRole(s.database.db, '000000', 'partyClerk', '党建文员');
    await grantCodes(s.database.db, clerk, ['party_organization']);
    const limited = (await signedInUser(s, 'partyNoMembers', [clerk])).token;
    expect((await get('/villagerToParty/probation-due', limited)).statusCode).toBe(403);
    expect((await post('/villagerToParty/probation-notice', undefined, limited)).statusCode).toBe(403);
    expect((await get('/partyOverview/statistics', limited)).statusCode).toBe(403);
  });
});

describe('organisation tree', () => {
  it('refuses a parent that is the node itself or below it', async () => {
    const add = async (name: string, parentId: string) => {
      const res = await post('/partyOrganization/submit', { name, kind: '3', parentId });
      expect(res.statusCode, res.body).toBe(200);
      return String(res.json().data.id);
    };
    const a = await add('树甲', '0');
    const b = await add('树乙', a);
    const c = await add('树丙', b);
    for (const parentId of [a, c]) {
      const res = await post('/partyOrganization/submit', { id: a, name: '树甲', kind: '3', parentId });
      expect(res.statusCode, parentId).toBe(400);
      expect(res.json().data.field).toBe('parentId');
    }
  });

  it('another tenant cannot read a row by id, nor place a node under it', async () => {
    for (const path of ['partyOrganization', 'villagerToParty', 'partyPairing', 'partyActivity']) {
      // the organisations are a tree: the list answers its nodes, not a page
      const data = (await get(`/${path}/page?size=1`)).json().data;
      const [row] = data.records ?? data;
      expect(row, path).toBeTruthy();
      const res = await get(`/${path}/detail?id=${row.id}`, other);
      expect(res.statusCode, path).toBe(404);
    }
    const res = await post(
      '/partyOrganization/submit',
      { name: '越界', kind: '3', parentId: PARTY_DEMO.orgId },
      other,
    );
    expect(res.statusCode).toBe(400);
  });
});

describe('pairings', () => {
  it('take a party member, not any villager', async () => {
    const plain = await newVillager('非党员');
    const body = { householdNo: 'P0001', startDate: '2026-10-01' };
    const refused = await post('/partyPairing/submit', { ...body, memberId: plain });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ data: { field: 'memberId' }, msg: '所选村民不是党员' });
    const res = await post('/partyPairing/submit', { ...body, memberId: PARTY_DEMO.villagerId });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('activities', () => {
  it('answer their attendance from the members present', async () => {
    const a = await newVillager('到会甲');
    const b = await newVillager('到会乙');
    const res = await post('/partyActivity/submit', {
      orgId: PARTY_DEMO.orgId,
      title: '主题党日测试',
      activityDate: '2026-11-01',
      attendees: `${a},${b}`,
      attendance: 99,
    });
    expect(res.statusCode, res.body).toBe(200);
    const detail = (await get(`/partyActivity/detail?id=${res.json().data.id}`)).json().data;
    expect(detail.attendance).toBe(2);
  });
});

describe('overview', () => {
  it('counts what the rows say, labelled in the request’s language', async () => {
    const db = s.database.db;
    const live = and(eq(villagerToParty.tenantId, '000000'), eq(villagerToParty.isDeleted, 0));
    const [{ n: members }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(villagerToParty)
      .where(live);
    const [{ n: probationary }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(villagerToParty)
      .where(and(live, eq(villagerToParty.memberType, '2')));
    const [{ n: households }] = await db
      .select({ n: sql<number>`count(distinct ${villager.householdNo})::int` })
      .from(villager)
      .where(and(eq(villager.tenantId, '000000'), eq(villager.isDeleted, 0)));
    const [{ n: paired }] = await db
      .select({ n: sql<number>`count(distinct ${villager.householdNo})::int` })
      .from(villager)
      .where(
        and(
          eq(villager.tenantId, '000000'),
          eq(villager.isDeleted, 0),
          sql`${villager.householdNo} in (select ${partyPairing.householdNo} from ${partyPairing} where ${partyPairing.tenantId} = '000000' and ${partyPairing.isDeleted} = 0)`,
        ),
      );
    const res = await get('/partyOverview/statistics');
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().data as PartyOverview;
    expect(o.members).toBe(Number(members));
    expect(o.members).toBeGreaterThan(0);
    expect(o.probationary).toBe(Number(probationary));
    expect(o.households).toBe(Number(households));
    expect(o.pairedHouseholds).toBe(Number(paired));
    expect(o.pairedHouseholds).toBeGreaterThan(0);
    const sum = (xs: { value: number }[]) => xs.reduce((a, x) => a + x.value, 0);
    expect(sum(o.byBranch)).toBe(o.members);
    expect(sum(o.byAge)).toBe(o.members);
    // education counts the members' villagers (one villager may be listed once)
    const [{ n: memberVillagers }] = await db
      .select({ n: sql<number>`count(distinct ${villagerToParty.villagerId})::int` })
      .from(villagerToParty)
      .where(live);
    expect(sum(o.byEducation)).toBe(Number(memberVillagers));
    expect(o.byBranch.map((b) => b.name)).toContain('第一党支部');
    const en = (await get('/partyOverview/statistics', token, 'en')).json().data as PartyOverview;
    expect(en.byAge.map((b) => b.name)).toContain('Under 35');
    // another tenant's overview is its own: nothing
    const foreign = (await get('/partyOverview/statistics', other)).json().data as PartyOverview;
    expect(foreign).toMatchObject({ members: 0, households: 0, pairedHouseholds: 0 });
  });
});
