import { type HomeWorkplace, noticeResource, villagerResource } from '@smart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceAlarm } from '../src/modules/telemetry/tables';
import { schema } from '../src/platform/db';
import { menuId } from '../src/seed/menus';
import {
  clearCaches,
  grantCodes,
  makeRole,
  otherTenantAdmin,
  sampleRecord,
  serviceCalls,
  signedInUser,
  WORK_CODES,
} from './fixtures';
import { md5Hex, signIn, startTestServer, type TestServer, tokenRequest } from './harness';

/**
 * 首页 (GET /api/dfem-desk/home): one answer with only the parts the caller's menu codes open, counts
 * within its data scope and tenant, a leave's task on the approver's home, and what is new since the
 * previous sign-in.
 */
let s: TestServer;
let admin: string;
let other: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = (await signIn(s)).access_token;
  other = await otherTenantAdmin(s, '200031', '首页他村', 'homeOther');
});
afterAll(() => s?.close());

const MANAGE = serviceCalls(
  () => s,
  '/api/dfem-hope-manage',
  () => admin,
);
const DESK = serviceCalls(
  () => s,
  '/api/dfem-desk',
  () => admin,
);
async function home(token: string, lang = 'zh'): Promise<HomeWorkplace> {
  const res = await DESK.get('/home', token, lang);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
const figure = (h: HomeWorkplace, key: string) => h.figures.find((f) => f.key === key)?.value;

describe('home workplace', () => {
  it('the administrator gets every part, each figure linking to its screen', async () => {
    const h = await home(admin);
    expect(h.todo).toBeDefined();
    expect(h.claim).toBeDefined();
    expect(h.running).toBeDefined();
    expect(h.notices).toBeDefined();
    expect(h.figures.map((f) => f.key)).toEqual([
      'villagers',
      'monitored',
      'openAlarms',
      'offlineDevices',
      'evaluating',
    ]);
    expect(h.figures.find((f) => f.key === 'villagers')?.route).toBe(villagerResource.route);
    // the figure counts what the villager list shows the same caller
    const list = await MANAGE.get('/villager/page?current=1&size=1');
    expect(figure(h, 'villagers')).toBe(Number(list.json().data.total));
  });

  it('a user without workflow codes gets no to-do part; only the areas it may open', async () => {
    const role = await makeRole(s.database.db, '000000', 'homeClerk', '首页办事员');
    await grantCodes(s.database.db, role, ['villager', 'villager_add']);
    const clerk = await signedInUser(s, 'homeClerk', [role]);
    const h = await home(clerk.token);
    expect(h.todo).toBeUndefined();
    expect(h.claim).toBeUndefined();
    expect(h.running).toBeUndefined();
    expect(h.notices).toBeUndefined();
    expect(h.figures.map((f) => f.key)).toEqual(['villagers']);

    // data scope "own rows" on villagers: the figure counts the clerk's own rows only
    const [scope] = await s.database.db
      .insert(schema.scopeData)
      .values({
        menuId: menuId('villager'),
        resourceCode: 'villager',
        scopeName: 'own',
        scopeType: 2,
      })
      .returning({ id: schema.scopeData.id });
    await s.database.db
      .insert(schema.roleScope)
      .values({ scopeCategory: 1, scopeId: scope.id, roleId: role });
    clearCaches();
    expect(figure(await home(clerk.token), 'villagers')).toBe(0);
    const made = await MANAGE.post(
      '/villager/submit',
      { ...sampleRecord(villagerResource, 7), name: '首页村民' },
      clerk.token,
    );
    expect(made.statusCode, made.body).toBe(200);
    clearCaches();
    expect(figure(await home(clerk.token), 'villagers')).toBe(1);
    expect(figure(await home(admin), 'villagers')).toBeGreaterThan(1);
  });

  it('another tenant’s rows are never counted or listed', async () => {
    const title = '首页本村通知';
    const made = await DESK.post('/notice/submit', { ...sampleRecord(noticeResource, 3), title });
    expect(made.statusCode, made.body).toBe(200);
    const mine = await home(admin);
    expect(mine.notices?.some((n) => n.title === title)).toBe(true);
    const theirs = await home(other);
    expect(theirs.notices?.some((n) => n.title === title)).toBe(false);
    expect(figure(theirs, 'villagers')).toBe(0);
    const before = figure(mine, 'villagers');
    const added = await MANAGE.post(
      '/villager/submit',
      { ...sampleRecord(villagerResource, 8), name: '他村村民' },
      other,
    );
    expect(added.statusCode, added.body).toBe(200);
    clearCaches();
    expect(figure(await home(other), 'villagers')).toBe(1);
    expect(figure(await home(admin), 'villagers')).toBe(before);
  });

  it('a device never heard from counts offline; an alarm counts until it is closed, in its tenant only', async () => {
    const before = await home(admin);
    const theirsBefore = await home(other);
    const made = await MANAGE.post('/smartPlant/deviceManage/submit', {
      name: '首页测试设备',
      kind: '1',
      serial: `HOME-${Date.now() % 100000}`,
      reportInterval: 10,
    });
    expect(made.statusCode, made.body).toBe(200);
    const deviceId = String(made.json().data.id);
    const alarm = (state: string) => ({
      tenantId: '000000',
      deviceId,
      kind: '2',
      state,
      raisedAt: new Date(),
    });
    await s.database.db.insert(deviceAlarm).values([alarm('1'), alarm('2'), alarm('3')] as never);
    clearCaches();
    const after = await home(admin);
    expect(figure(after, 'offlineDevices')).toBe((figure(before, 'offlineDevices') ?? 0) + 1);
    expect(figure(after, 'openAlarms')).toBe((figure(before, 'openAlarms') ?? 0) + 2);
    const theirs = await home(other);
    expect(figure(theirs, 'openAlarms')).toBe(figure(theirsBefore, 'openAlarms'));
    expect(figure(theirs, 'offlineDevices')).toBe(figure(theirsBefore, 'offlineDevices'));
  });

  it('a leave shows on the approver’s to-dos (with its form) and the applicant’s running applications', async () => {
    const staff = await makeRole(s.database.db, '000000', 'homeStaff', '首页职员');
    await grantCodes(s.database.db, staff, WORK_CODES);
    const applicant = await signedInUser(s, 'homeApplicant', [staff]);
    const approver = await signedInUser(s, 'homeApprover', [staff]);
    const started = await DESK.post(
      '/process/leave/start-process',
      {
        processDefinitionId: 'leave:1:seed0001',
        taskUser: approver.id,
        startTime: '2026-12-01 09:00:00',
        endTime: '2026-12-03 18:00:00',
        reason: '首页测试',
      },
      applicant.token,
    );
    expect(started.statusCode, started.body).toBe(200);
    const { processInstanceId, businessId } = started.json().data;

    const h = await home(approver.token);
    expect(h.todo?.total).toBe(1);
    expect(h.todo?.oldest[0]).toMatchObject({
      processInstanceId,
      businessId: String(businessId),
      route: 'leave',
      startUserName: 'homeApplic',
    });
    expect(h.todo?.oldest[0].waited).toBeGreaterThanOrEqual(0);
    expect(h.figures).toEqual([]);
    const a = await home(applicant.token);
    expect(a.todo?.total).toBe(0);
    expect(a.running?.total).toBe(1);
    expect(a.running?.latest[0]).toMatchObject({ processInstanceId, route: 'leave' });
    // a first sign-in has nothing to compare with
    expect(h.since).toBeUndefined();

    // signed in again: the leave's task arrived after the previous sign-in
    await s.app.auditLog.flush();
    await new Promise((r) => setTimeout(r, 1100));
    const again = await tokenRequest(s, {
      grant_type: 'password',
      username: 'homeApprover',
      password: md5Hex('pass'),
    });
    const h2 = await home(again.json().access_token);
    expect(h2.since?.at).toBeTruthy();
    expect(h2.since?.todo).toBe(1);
    expect(h2.since?.notices).toBeUndefined();
  });
});

describe('notices on the home', () => {
  it('the latest first, those released since the previous sign-in marked new and counted', async () => {
    const at = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const notice = async (title: string, releaseTime: string) => {
      const res = await DESK.post('/notice/submit', {
        ...sampleRecord(noticeResource, 5),
        title,
        releaseTime,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await notice('首页旧通知', at(Date.now() - 86_400_000));
    const first = await tokenRequest(s, {
      grant_type: 'password',
      username: 'admin',
      password: md5Hex('admin'),
    });
    await home(first.json().access_token);
    await s.app.auditLog.flush();
    await new Promise((r) => setTimeout(r, 1100));
    await notice('首页新通知', at(Date.now()));
    const again = await tokenRequest(s, {
      grant_type: 'password',
      username: 'admin',
      password: md5Hex('admin'),
    });
    const h = await home(again.json().access_token);
    expect(h.notices?.[0]).toMatchObject({ title: '首页新通知', fresh: true });
    expect(h.notices?.find((n) => n.title === '首页旧通知')?.fresh).toBe(false);
    expect(h.notices?.filter((n) => n.fresh)).toHaveLength(1);
    expect(h.since?.notices).toBe(1);
  });
});

describe('names in the caller’s language (issue 32)', () => {
  const SYSTEM = serviceCalls(
    () => s,
    '/api/dfem-system',
    () => admin,
  );

  it('the home names the caller’s roles in English in English, in Chinese otherwise', async () => {
    expect((await home(admin, 'zh')).roleName).toBe('超级管理员');
    expect((await home(admin, 'en')).roleName).toBe('Super administrator');
    // a role without an English name keeps its own in English
    const own = (await home(other, 'zh')).roleName;
    expect(own).toBeTruthy();
    expect((await home(other, 'en')).roleName).toBe(own);
  });

  it('the role and menu lists answer the seeded English names beside the Chinese ones; pickers name them in English', async () => {
    const roles = (await SYSTEM.get('/role/list', admin, 'en')).json().data as {
      roleName: string;
      nameEn: string;
    }[];
    expect(roles.find((r) => r.roleName === '超级管理员')?.nameEn).toBe('Super administrator');
    const tree = (await SYSTEM.get('/role/tree', admin, 'en')).json().data as { title: string }[];
    expect(tree.map((n) => n.title)).toContain('Super administrator');
    const menus = (await SYSTEM.get('/menu/list', admin, 'en')).json().data as {
      name: string;
      nameEn: string;
    }[];
    expect(menus.find((m) => m.name === '系统管理')?.nameEn).toBe('System');
  });
});
