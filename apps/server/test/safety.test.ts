import { cameraResource, checkField, gbDeviceIdProblem, type SafetyFigures } from '@smart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveSafetyMenus } from '../src/modules/safety/seed';
import { camera, cameraWatchLog, securityIncident } from '../src/modules/safety/tables';
import { schema } from '../src/platform/db';
import { notDeleted } from '../src/platform/sql';
import { menuId } from '../src/seed/menus';
import { areaServer, grantCodes, listedRows, makeRole, serviceCalls, signedInUser } from './fixtures';
import type { TestServer } from './harness';

/** Safety: the camera's GB/T 28181 code, the watch log the wall writes, the overview's figures, isolation. */
let s: TestServer;
let token: string;
let other: string;
beforeAll(async () => {
  ({ s, token, other } = await areaServer(['200021', '平安他村', 'safetyOther']));
});
afterAll(() => s.close());

const API = '/api/dfem-hope-manage';
const { get, post } = serviceCalls(
  () => s,
  API,
  () => token,
);

let serial = 100;
/** a valid code: Hunan (43…), an IP camera (132), a fresh serial */
const code = () => `4301000000132${String(++serial).padStart(7, '0')}`;
const cameraBody = (over: Record<string, unknown> = {}) => ({
  name: `测试摄像头${serial}`,
  deviceId: code(),
  place: '村口',
  location: '112.9388,28.2282',
  streamUrl: 'http://127.0.0.1:1/none.m3u8',
  streamKind: '1',
  codec: '1',
  online: 1,
  ...over,
});

describe('camera device id (GB/T 28181)', () => {
  const field = cameraResource.fields.find((f) => f.name === 'deviceId')!;

  it('the shared field rule says what is wrong, in both languages', () => {
    expect(gbDeviceIdProblem('4301000000132000001')).toBe('format');
    expect(gbDeviceIdProblem('99010000001320000001')).toBe('region');
    expect(gbDeviceIdProblem('43010000002000000001')).toBe('type');
    expect(gbDeviceIdProblem('43010000001310000001')).toBeNull();
    expect(checkField(field, '43010000002000000001')).toEqual({
      zh: '国标编码不是摄像机或视频设备的编码',
      en: 'GB/T 28181 code is not a camera or video device code',
    });
  });

  it.each([
    ['too short', '4301000000132000001', '20位数字', '20 digits'],
    ['too long', '430100000013200000011', '20位数字', '20 digits'],
    ['letters', '4301000000132000000A', '20位数字', '20 digits'],
    ['no province (99)', '99010000001320000001', '省级区划代码无效', 'invalid province code'],
    ['no province (10)', '10010000001320000001', '省级区划代码无效', 'invalid province code'],
    ['no province (83)', '83010000001320000001', '省级区划代码无效', 'invalid province code'],
    ['a server type (200)', '43010000002000000001', '视频设备的编码', 'video device code'],
    ['an alarm input (134)', '43010000001340000001', '视频设备的编码', 'video device code'],
  ])('a code with %s is refused, naming deviceId, and nothing is written', async (_why, deviceId, zh, en) => {
    const before = await s.database.db.select({ n: sql<number>`count(*)::int` }).from(camera);
    const res = await post('/camera/submit', cameraBody({ deviceId }));
    expect(res.statusCode).toBe(400);
    expect(res.json().data.field).toBe('deviceId');
    expect(res.json().msg).toContain(zh);
    const resEn = await post('/camera/submit', cameraBody({ deviceId }), token, 'en');
    expect(resEn.json().msg).toContain(en);
    const after = await s.database.db.select({ n: sql<number>`count(*)::int` }).from(camera);
    expect(after[0].n).toBe(before[0].n);
  });

  it('good codes of a camera, an IP camera, a DVR and an NVR are accepted; a duplicate is refused', async () => {
    for (const type of ['131', '132', '111', '118']) {
      const deviceId = `11010200001${type}${String(++serial).padStart(6, '0')}`;
      const res = await post('/camera/submit', cameraBody({ deviceId }));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.deviceId).toBe(deviceId);
    }
    const deviceId = code();
    expect((await post('/camera/submit', cameraBody({ deviceId }))).statusCode).toBe(200);
    const again = await post('/camera/submit', cameraBody({ deviceId, name: '重复' }));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ data: { field: 'deviceId' }, msg: '国标编码已存在' });
    // another tenant may have a camera of the same code (unique per tenant)
    expect((await post('/camera/submit', cameraBody({ deviceId }), other)).statusCode).toBe(200);
  });
});

describe('watch log', () => {
  it('each opened stream writes one entry (who, which camera, when) within the tenant; the log is read-only', async () => {
    const cam = (await post('/camera/submit', cameraBody({ name: '日志摄像头' }))).json().data;
    const theirs = (await post('/camera/submit', cameraBody({ name: '他村摄像头' }), other)).json().data;
    for (let i = 0; i < 2; i++) {
      const res = await post('/camera/watch', { cameraId: cam.id });
      expect(res.statusCode, res.body).toBe(200);
    }
    const rows = await s.database.db
      .select({
        tenantId: cameraWatchLog.tenantId,
        user: cameraWatchLog.createUser,
        at: cameraWatchLog.watchedAt,
      })
      .from(cameraWatchLog)
      .where(and(eq(cameraWatchLog.cameraId, cam.id), notDeleted(cameraWatchLog.isDeleted)));
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.tenantId === '000000' && r.user !== null)).toBe(true);
    expect(Date.now() - new Date(rows[0].at as Date).getTime()).toBeLessThan(60_000);
    const list = await get(`/cameraWatchLog/page?current=1&size=50&cameraId=${cam.id}`);
    expect(list.statusCode).toBe(200);
    const listed = listedRows(list.json().data);
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatchObject({ cameraId: cam.id, cameraName: '日志摄像头' });
    expect(String(listed[0].userName).length).toBeGreaterThan(0);

    // another tenant's camera is "not found", and writes nothing
    expect((await post('/camera/watch', { cameraId: theirs.id })).statusCode).toBe(404);
    // the other tenant sees none of these entries, and its own watch is its own
    expect((await post('/camera/watch', { cameraId: theirs.id }, other)).statusCode).toBe(200);
    const theirList = listedRows((await get('/cameraWatchLog/page?current=1&size=200', other)).json().data);
    expect(theirList.map((r) => r.cameraId)).toEqual([theirs.id]);
    const mine = listedRows((await get('/cameraWatchLog/page?current=1&size=200')).json().data);
    expect(mine.map((r) => r.cameraId)).not.toContain(theirs.id);

    // written by the server only: submit and remove are refused even to the administrator
    expect(
      (
        await post('/cameraWatchLog/submit', {
          cameraId: cam.id,
          userName: 'x',
          watchedAt: '2026-01-01 10:00:00',
        })
      ).statusCode,
    ).toBe(403);
    expect((await post(`/cameraWatchLog/remove?ids=${listed[0].id}`)).statusCode).toBe(403);
  });

  it('the wall lists the tenant’s cameras only, and refuses a caller without the wall’s code', async () => {
    const wall = (await get('/camera/wall')).json().data as { id: string; streamUrl: string }[];
    const theirs = (await get('/camera/wall', other)).json().data as { id: string }[];
    const mineIds = new Set(wall.map((c) => c.id));
    expect(theirs.length).toBeGreaterThan(0);
    expect(theirs.some((c) => mineIds.has(c.id))).toBe(false);
    const role = await makeRole(s.database.db, '000000', 'noWall');
    await grantCodes(s.database.db, role, ['camera']);
    const limited = (await signedInUser(s, 'noWallUser', [role])).token;
    expect((await get('/camera/wall', limited)).statusCode).toBe(403);
    expect((await post('/camera/watch', { cameraId: wall[0].id }, limited)).statusCode).toBe(403);
  });
});

describe('overview', () => {
  it('the figures equal the rows of the tenant, and exclude another tenant’s', async () => {
    // the other tenant adds an incident and an online camera: nothing of it may count here
    const first = await get('/securityOverview/statistics');
    expect(first.statusCode).toBe(200);
    const before = first.json().data as SafetyFigures;
    expect(
      (
        await post(
          '/securityIncident/submit',
          {
            occurredAt: '2026-01-15 10:00:00',
            place: '他村',
            kind: '2',
            description: '他村事件',
            state: '1',
          },
          other,
        )
      ).statusCode,
    ).toBe(200);
    expect((await post('/camera/submit', cameraBody({ online: 1 }), other)).statusCode).toBe(200);
    const res = await get('/securityOverview/statistics');
    expect(res.statusCode).toBe(200);
    const f = res.json().data as SafetyFigures;
    expect(f).toEqual(before);

    const db = s.database.db;
    const mine = and(eq(camera.tenantId, '000000'), notDeleted(camera.isDeleted));
    const [cams] = await db
      .select({
        n: sql<number>`count(*)::int`,
        online: sql<number>`(count(*) filter (where online = 1))::int`,
      })
      .from(camera)
      .where(mine);
    expect(f.cameras).toBe(cams.n);
    expect(f.camerasOnline).toBe(cams.online);
    expect(f.byOnline.map((x) => x.value)).toEqual([cams.online, cams.n - cams.online]);
    const incRows = await db
      .select({ kind: securityIncident.kind, state: securityIncident.state, at: securityIncident.occurredAt })
      .from(securityIncident)
      .where(and(eq(securityIncident.tenantId, '000000'), notDeleted(securityIncident.isDeleted)));
    expect(f.incidents).toBe(incRows.length);
    expect(f.incidents).toBeGreaterThan(0);
    expect(f.openIncidents).toBe(incRows.filter((r) => r.state !== '3').length);
    for (const k of f.byKind) expect(k.value).toBe(incRows.filter((r) => r.kind === k.key).length);
    expect(f.byKind.reduce((a, k) => a + k.value, 0)).toBe(incRows.length);
    expect(f.byMonth).toHaveLength(12);
    const inMonths = f.byMonth.reduce((a, m) => a + m.value, 0);
    const since = `${f.byMonth[0].key}-01`;
    const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: process.env.TZ || 'Asia/Shanghai' });
    expect(inMonths).toBe(incRows.filter((r) => fmt.format(new Date(r.at as Date)) >= since).length);
    // English labels
    const en = (await get('/securityOverview/statistics', token, 'en')).json().data as SafetyFigures;
    expect(en.byOnline.map((x) => x.name)).toEqual(['Online', 'Offline']);
    expect(en.byKind.map((x) => x.name)).toContain('Theft');
  });

  it('is refused to a caller without the overview’s code', async () => {
    const role = await makeRole(s.database.db, '000000', 'noSafetyOverview');
    await grantCodes(s.database.db, role, ['camera']);
    const limited = (await signedInUser(s, 'noSafetyOverview', [role])).token;
    expect((await get('/securityOverview/statistics', limited)).statusCode).toBe(403);
  });

  it('a safety summary counts its period’s incidents when saved', async () => {
    for (const [occurredAt, state] of [
      ['2026-01-03 08:00:00', '3'],
      ['2026-01-31 23:30:00', '1'],
      ['2026-02-01 00:10:00', '3'],
    ])
      expect(
        (
          await post('/securityIncident/submit', {
            occurredAt,
            place: '村口',
            kind: '1',
            description: '纠纷',
            state,
          })
        ).statusCode,
      ).toBe(200);
    const res = await post('/securityOverview/submit', {
      title: '一月',
      period: '2026-01-01,2026-01-31',
      incidents: 999,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [n] = await s.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(securityIncident)
      .where(
        and(
          eq(securityIncident.tenantId, '000000'),
          notDeleted(securityIncident.isDeleted),
          sql`(${securityIncident.occurredAt} at time zone ${process.env.TZ || 'Asia/Shanghai'})::date between '2026-01-01' and '2026-01-31'`,
        ),
      );
    expect(n.n).toBeGreaterThanOrEqual(2);
    expect(res.json().data.incidents).toBe(n.n);
    expect(res.json().data.closedIncidents).toBeGreaterThanOrEqual(1);
  });
});

describe('guarantee groups and security charges in the safety folder', () => {
  it('keep their spec paths, and an install that had them under village affairs gets its menus moved', async () => {
    expect((await get('/guaranteeGroup/page?current=1&size=10')).statusCode).toBe(200);
    expect((await get('/securityCharge/page?current=1&size=10')).statusCode).toBe(200);
    const db = s.database.db;
    const m = schema.menu;
    // as an install seeded before the move has them
    await db
      .update(m)
      .set({ parentId: menuId('village'), path: '/village/guarantee' })
      .where(eq(m.code, 'guarantee_group'));
    await db
      .update(m)
      .set({ path: sql`'/village/guarantee/' || substring(${m.code} from 17)` })
      .where(eq(m.parentId, menuId('guarantee_group')));
    await moveSafetyMenus(db);
    const [folder] = await db
      .select({ parentId: m.parentId, path: m.path })
      .from(m)
      .where(eq(m.code, 'guarantee_group'));
    expect(folder).toEqual({ parentId: menuId('safety'), path: '/safety/guarantee' });
    const buttons = await db
      .select({ code: m.code, path: m.path })
      .from(m)
      .where(eq(m.parentId, menuId('guarantee_group')));
    expect(buttons.length).toBeGreaterThan(0);
    for (const b of buttons)
      expect(b.path).toBe(`/safety/guarantee/${b.code.slice('guarantee_group_'.length)}`);
    const [charge] = await db
      .select({ parentId: m.parentId, path: m.path })
      .from(m)
      .where(eq(m.code, 'security_charge'));
    expect(charge).toEqual({ parentId: menuId('safety'), path: '/safety/security' });
  });
});
