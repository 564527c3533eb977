import { guaranteeGroupResource, SAFETY_AREA, SAFETY_DEMO, securityChargeResource } from '@smart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { formatDateTime } from '../../platform/format';
import { notDeleted } from '../../platform/sql';
import { insertAll } from '../../seed/insert';
import { menuId } from '../../seed/menus';
import { SEED } from '../../seed/system';
import { villager } from '../village/tables';
import { type DemoStream, demoStreamUrl } from './demo-video';
import { camera, cameraWatchLog, securityIncident, securityOverview, securityPrincipal } from './tables';

/** the demo's RTSP camera (offline): a browser plays no RTSP, so the wall says so and never connects */
const PARK_RTSP = 'rtsp://cam-park.qingshan.invalid/stream1';

/**
 * The demo cameras' streams before the product served its own (`safety-v1` of earlier versions): each on a
 * reserved domain that never resolves. Step `safety-demo-video-v1` moves an install's cameras still there
 * to the demo streams (H.264 HLS, online), which fresh installs get from `safety-v1`.
 */
const OLD_STREAMS: [url: string, stream: DemoStream][] = [
  ['http://cam-gate.qingshan.invalid/live/gate.m3u8', 'gate'],
  ['http://cam-square.qingshan.invalid/live/square.m3u8', 'square'],
  ['http://cam-school.qingshan.invalid/live/school.flv', 'school'],
  ['http://cam-river.qingshan.invalid/live/river.m3u8', 'river'],
  ['http://cam-west.qingshan.invalid/live/west.m3u8', 'west'],
];

/**
 * Safety: its dictionaries, and the demo village's (tenant 000000) principals per grid, cameras (five play
 * the demo streams the server makes and serves itself, `demo-video.ts`; the parking lot's is an offline
 * RTSP camera, which a browser cannot play: the wall says so), incidents of the last months, a summary and
 * a few watch-log entries. Deterministic, dated from today.
 */
export async function seedSafety(db: Db) {
  await moveSafetyMenus(db);
  const tenantId = '000000';
  const base = { tenantId, createUser: SEED.adminUserId, createDept: SEED.rootDeptId };
  const [demo] = await db
    .select({ id: villager.id })
    .from(villager)
    .where(
      and(
        eq(villager.id, SAFETY_DEMO.villagerId),
        eq(villager.tenantId, tenantId),
        notDeleted(villager.isDeleted),
      ),
    )
    .limit(1);
  const principalId = (i: number) => String(BigInt(SAFETY_DEMO.principalId) + BigInt(i));
  const cameraId = (i: number) => String(BigInt(SAFETY_DEMO.cameraId) + BigInt(i));
  const principals = [
    ['李建国', '第一网格(村部周边)', '13807310001', '治保主任'],
    ['王秀英', '第二网格(东组)', '13807310002', '网格员'],
    ['张卫东', '第三网格(西组)', '13807310003', '网格员'],
    ['赵明', '村口及主干道', '0731-84561234', '联防队长'],
  ] as const;
  await insertAll(
    db,
    securityPrincipal,
    principals.map(([name, gridName, phone, duty], i) => ({
      ...base,
      id: principalId(i),
      name,
      gridName,
      phone,
      duty,
      villagerId: i === 0 && demo ? demo.id : null,
    })),
  );
  // [name, place, point, stream kind, codec, online, stream]
  const cameras = [
    ['村口卡口', '村口主干道', '112.938814,28.228209', '1', '1', 1, demoStreamUrl('gate')],
    ['村部广场', '村部门前广场', '112.939512,28.229011', '1', '1', 1, demoStreamUrl('square')],
    ['学校路口', '小学门口', '112.941020,28.227730', '1', '1', 1, demoStreamUrl('school')],
    ['河堤', '东河堤坝', '112.943301,28.226410', '1', '1', 1, demoStreamUrl('river')],
    ['停车场', '村部停车场', '112.938101,28.229520', '3', '1', 0, PARK_RTSP],
    ['西组路口', '西组岔路口', '112.936020,28.228880', '1', '1', 1, demoStreamUrl('west')],
  ] as const;
  await insertAll(
    db,
    camera,
    cameras.map(([name, place, location, streamKind, codec, online, streamUrl], i) => ({
      ...base,
      id: cameraId(i),
      name,
      place,
      location,
      // Hunan, Changsha (4301…), trade 00, type 132 (IP camera), network 0, a serial
      deviceId: `4301000000132${String(i + 1).padStart(7, '0')}`,
      streamUrl,
      streamKind,
      codec,
      online,
      principalId: principalId(i % principals.length),
    })),
  );
  const today = formatDateTime(new Date()).slice(0, 10);
  const at = (daysAgo: number, hour: number) =>
    new Date(Date.parse(`${today}T00:00:00+08:00`) - daysAgo * 86_400_000 + hour * 3_600_000);
  const incidents = [
    [3, 21, '村口主干道', '5', '夜间有陌生车辆徘徊,巡逻队上前询问后离开', '3'],
    [12, 10, '东组', '1', '两户村民因宅基地边界发生口角,已调解', '3'],
    [25, 15, '村部停车场', '2', '一辆电动车被盗,已报派出所', '2'],
    [40, 19, '西组', '3', '柴草堆放靠近电线,已督促清理', '3'],
    [58, 8, '学校路口', '4', '两车轻微剐蹭,无人员受伤', '3'],
    [75, 22, '东河堤坝', '5', '有人夜间在河堤钓鱼,已劝离', '3'],
    [100, 14, '第二网格', '1', '邻里噪音纠纷,网格员上门调解', '3'],
    [130, 9, '村委会', '6', '发现消防栓损坏,已报修', '1'],
    [170, 16, '主干道', '4', '摩托车侧滑,驾驶人轻伤送医', '3'],
    [220, 11, '东组', '2', '农户家中鸡鸭被盗', '2'],
  ] as const;
  await insertAll(
    db,
    securityIncident,
    incidents.map(([ago, hour, place, kind, description, state], i) => ({
      ...base,
      occurredAt: at(ago, hour),
      place,
      kind,
      description,
      state,
      handlerId: principalId(i % principals.length),
      cameraId: i === 0 ? cameraId(0) : null,
      result: state === '3' ? '已处理完毕' : null,
    })),
  );
  const since = new Date(Date.parse(`${today}T00:00:00Z`) - 31 * 86_400_000).toISOString().slice(0, 10);
  const inPeriod = incidents.filter(([ago]) => ago <= 31);
  await insertAll(db, securityOverview, [
    {
      ...base,
      title: `${today.slice(0, 7)} 平安形势`,
      period: `${since},${today}`,
      incidents: inPeriod.length,
      closedIncidents: inPeriod.filter((x) => x[5] === '3').length,
      summary: '本期治安形势总体平稳,未发生重大案件。',
    },
  ]);
  await insertAll(
    db,
    cameraWatchLog,
    [0, 1, 2].map((i) => ({
      ...base,
      cameraId: cameraId(i),
      userName: '管理员',
      watchedAt: at(i + 1, 9),
    })),
  );
}

/** Step `safety-demo-video-v1`: the demo cameras still on the old unreachable addresses play the demo streams. */
export async function moveToDemoStreams(db: Db) {
  for (const [url, stream] of OLD_STREAMS)
    await db
      .update(camera)
      .set({ streamUrl: demoStreamUrl(stream), streamKind: '1', codec: '1', online: 1 })
      .where(and(eq(camera.tenantId, '000000'), eq(camera.streamUrl, url)));
}

/**
 * Guarantee groups and security charges moved here from village affairs (same codes, new routes): an install
 * whose menus already hold them (under 村务管理, at /village/…) gets them in this folder at their new
 * routes, their buttons' paths along (the menu sync that follows every step adds the folder itself).
 */
export async function moveSafetyMenus(db: Db) {
  for (const def of [guaranteeGroupResource, securityChargeResource]) {
    await db
      .update(schema.menu)
      .set({ parentId: menuId(SAFETY_AREA.code), path: def.route })
      .where(eq(schema.menu.code, def.permission));
    await db
      .update(schema.menu)
      .set({
        path: sql`${def.route} || '/' || substring(${schema.menu.code} from ${def.permission.length + 2}::int)`,
      })
      .where(and(eq(schema.menu.parentId, menuId(def.permission)), eq(schema.menu.category, 2)));
  }
}
