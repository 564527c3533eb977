import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EnergyOverview, POWER_DEMO, type WallCamera } from '@smart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveStationCamerasToDemoStreams } from '../src/modules/power/seed';
import { powerVideo } from '../src/modules/power/tables';
import { dailyEnergy, dayLabel, dayStart, daysBetween, parseDay } from '../src/modules/power/yield';
import { DEMO_STREAMS, DemoVideo, SHIPPED_CLIP } from '../src/modules/safety/demo-video';
import { moveToDemoStreams } from '../src/modules/safety/seed';
import { camera } from '../src/modules/safety/tables';
import { fillSimulatorGap } from '../src/modules/telemetry/gap';
import { areaServer, listedRows, serviceCalls } from './fixtures';
import type { TestServer } from './harness';

/**
 * The demo shows itself on a fresh start (issue 32, items 5 and 6): the server makes and serves its own demo
 * camera streams (same origin, no token, nothing else of its data folder), the seeded cameras play them,
 * and the seeded data is plausible — trap photos stored as uploads, tariff versions, a yield for every day of
 * this month sized to the stations.
 */
let s: TestServer;
let token: string;
beforeAll(async () => {
  const env = { DEMO_VIDEO: 'on', TELEMETRY_SIMULATOR: 'on' };
  ({ s, token } = await areaServer(['200032', '演示他村', 'demoOther'], env));
  const started = performance.now();
  await s.app.demoVideo.make();
  console.log(`demo streams made in ${Math.round(performance.now() - started)} ms`);
}, 180_000);
afterAll(() => s.close());

const manage = serviceCalls(
  () => s,
  '/api/dfem-hope-manage',
  () => token,
);
const power = serviceCalls(
  () => s,
  '/api/dfem-hope-power',
  () => token,
);
const plain = (url: string) => s.app.inject({ method: 'GET', url });

describe('the demo streams', () => {
  it('are served without a token: a VOD playlist that loops, and its H.264 segments as MPEG-TS', async () => {
    for (const name of Object.keys(DEMO_STREAMS)) {
      const list = await plain(`/demo-video/${name}/index.m3u8`);
      expect(list.statusCode, name).toBe(200);
      expect(list.headers['content-type']).toBe('application/vnd.apple.mpegurl');
      expect(list.body).toMatch(/^#EXTM3U/);
      expect(list.body).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
      expect(list.body).toContain('#EXT-X-ENDLIST');
      const segments = list.body.split('\n').filter((l) => l && !l.startsWith('#'));
      expect(segments.length).toBeGreaterThan(1);
      const seg = await plain(`/demo-video/${name}/${segments[0]}`);
      expect(seg.statusCode).toBe(200);
      expect(seg.headers['content-type']).toBe('video/mp2t');
      // MPEG-TS: 188-byte packets, each opening with the sync byte 0x47
      expect(seg.rawPayload[0]).toBe(0x47);
      expect(seg.rawPayload[188]).toBe(0x47);
    }
  });

  it('serve nothing else of the data folder: no other name, no other file, no way up', async () => {
    for (const url of [
      '/demo-video/gate/..%2F..%2Fjwt-secret',
      '/demo-video/gate/%2e%2e%2f%2e%2e%2fjwt-secret',
      '/demo-video/..%2Fgate/index.m3u8',
      '/demo-video/%2e%2e/jwt-secret',
      '/demo-video/../jwt-secret',
      '/demo-video/gate/../../jwt-secret',
      '/demo-video/gate/jwt-secret',
      '/demo-video/gate/index.m3u8.bak',
      '/demo-video/gate/seg000.ts%00.m3u8',
      '/demo-video/nope/index.m3u8',
      '/demo-video/constructor/index.m3u8',
      '/demo-video/gate/',
    ]) {
      const res = await plain(url);
      expect([400, 404], url).toContain(res.statusCode);
      expect(res.headers['content-type'] ?? '', url).not.toMatch(/mpegurl|mp2t/);
    }
  });

  it('come from the clip shipped with the server where there is no ffmpeg', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-video-'));
    const video = new DemoVideo(dir, s.app.log, '/nonexistent/ffmpeg');
    await video.make();
    const shipped = readdirSync(SHIPPED_CLIP).sort();
    expect(shipped).toContain('index.m3u8');
    for (const name of Object.keys(DEMO_STREAMS) as (keyof typeof DEMO_STREAMS)[])
      expect(readdirSync(video.dirOf(name)).sort()).toEqual(shipped);
  });

  it('are what the seeded cameras play: every camera the wall can play and both station cameras', async () => {
    const wall = (await manage.get('/camera/wall')).json().data as WallCamera[];
    const playable = wall.filter((c) => c.streamUrl.startsWith('/demo-video/'));
    expect(playable.length).toBeGreaterThanOrEqual(5);
    expect(wall.filter((c) => c.online && !playable.includes(c))).toEqual([]);
    const station = (await power.get(`/video/list?stationId=${POWER_DEMO.stationId}`)).json()
      .data as WallCamera[];
    const station2 = (await power.get(`/video/list?stationId=${POWER_DEMO.station2Id}`)).json()
      .data as WallCamera[];
    for (const c of [...playable, ...station, ...station2]) {
      expect(c.streamUrl, c.name).toMatch(/^\/demo-video\/[a-z0-9-]+\/index\.m3u8$/);
      expect(c.codec ?? '1', c.name).toBe('1');
      expect((await plain(c.streamUrl)).statusCode, c.name).toBe(200);
    }
    expect(station.length + station2.length).toBe(2);
  });

  it('replace the unreachable addresses of an install seeded before', async () => {
    const db = s.database.db;
    const [gate] = await db.select().from(camera).where(eq(camera.name, '村口卡口'));
    const [pv] = await db.select().from(powerVideo).where(eq(powerVideo.name, '一号电站全景'));
    await db
      .update(camera)
      .set({ streamUrl: 'http://cam-gate.qingshan.invalid/live/gate.m3u8' })
      .where(eq(camera.id, gate.id));
    await db
      .update(powerVideo)
      .set({ streamUrl: 'https://video.demo.invalid/live/pv-1.m3u8' })
      .where(eq(powerVideo.id, pv.id));
    await moveToDemoStreams(db);
    await moveStationCamerasToDemoStreams(db);
    const [after] = await db.select().from(camera).where(eq(camera.id, gate.id));
    const [pvAfter] = await db
      .select()
      .from(powerVideo)
      .where(and(eq(powerVideo.id, pv.id)));
    expect(after.streamUrl).toBe('/demo-video/gate/index.m3u8');
    expect(pvAfter.streamUrl).toBe('/demo-video/pv-1/index.m3u8');
  });
});

describe('a fresh seed looks like a working village', () => {
  it('has trap photos (虫情图片), stored as uploaded images are', async () => {
    const rows = listedRows((await manage.get('/pest/photo/page?size=100')).json().data);
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const r of rows.slice(0, 3)) {
      expect(String(r.photo)).toMatch(/^\/api\/dfem-hope-manage\/file\/image\/[0-9a-f-]{36}\.png$/);
      const img = await plain(String(r.photo));
      expect(img.statusCode).toBe(200);
      expect(img.headers['content-type']).toBe('image/png');
    }
    // newest first, the last within a few hours
    const newest = Date.parse(`${String(rows[0].takenAt).replace(' ', 'T')}+08:00`);
    expect(Date.now() - newest).toBeLessThan(4 * 3_600_000);
  });

  it('has tariff versions (电价版本) for both demo stations, the latest the station’s own tariff', async () => {
    const rows = listedRows((await power.get('/powerTariff/page?size=50')).json().data);
    const of = (id: string) => rows.filter((r) => r.stationId === id);
    expect(of(POWER_DEMO.stationId).length).toBeGreaterThanOrEqual(1);
    expect(of(POWER_DEMO.station2Id).length).toBeGreaterThanOrEqual(1);
    for (const id of [POWER_DEMO.stationId, POWER_DEMO.station2Id]) {
      const latest = of(id).sort((a, b) => String(b.effectiveFrom).localeCompare(String(a.effectiveFrom)))[0];
      const station = (await power.get(`/powerStation/detail?id=${id}`)).json().data;
      expect(Number(latest.tariff)).toBe(Number(station.tariff));
    }
  });

  it('has a yield for every day of this month so far, sized to the stations, without outliers', async () => {
    const res = await power.get('/powerStation/overview');
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().data as EnergyOverview;
    const now = Date.now();
    const days = daysBetween(parseDay(`${dayLabel(dayStart(now)).slice(0, 7)}-01`), now).map(dayLabel);
    expect(o.month.map(([d]) => d)).toEqual(days);
    // every day has its figure; the closed days (today is still going) within a plausible spread
    expect(o.month.filter(([, e]) => e === null)).toEqual([]);
    const closed = o.month.slice(0, -1).map(([, e]) => Number(e));
    console.log(`this month's daily yield (kWh): ${o.month.map(([d, e]) => `${d.slice(8)}:${e}`).join(' ')}`);
    if (closed.length) {
      const max = Math.max(...closed);
      const min = Math.min(...closed);
      expect(min).toBeGreaterThan(0);
      expect(max / min).toBeLessThan(4);
      // 270 kWp in all: between 1 and 5 kWh per kWp a day (the second station has a silent inverter)
      const capacity = o.stations.reduce((a, st) => a + st.capacity, 0);
      expect(max / capacity).toBeLessThan(5);
      expect(min / capacity).toBeGreaterThan(0.5);
    }
  });

  it('has the trap lamps’ counts of each of the 30 days before today (农业概览)', async () => {
    const res = await manage.get('/common/index/other/harmful');
    expect(res.statusCode, res.body).toBe(200);
    const { byDay } = res.json().data as { byDay: { day: string; counts: Record<string, number> }[] };
    expect(byDay.length).toBe(30);
    for (const d of byDay)
      expect(
        Object.values(d.counts).reduce((a, b) => a + b, 0),
        d.day,
      ).toBeGreaterThan(0);
  });

  it('has a trap photo from the in-process simulator as soon as it starts (the lamp photographs hourly)', async () => {
    const started = Date.now() - 10 * 60_000;
    await expect
      .poll(
        async () =>
          listedRows((await manage.get('/pest/photo/page?size=5')).json().data).filter(
            (r) => Date.parse(`${String(r.takenAt).replace(' ', 'T')}+08:00`) >= started,
          ).length,
        { timeout: 30_000 },
      )
      .toBeGreaterThanOrEqual(1);
  });

  it('a demo started again after days off fills each day of the silence, not their sum on the day it came back', async () => {
    const db = s.database.db;
    const inv = String(BigInt(POWER_DEMO.inverterDeviceId));
    const now = Date.now();
    const days = daysBetween(dayStart(now) - 3 * 86_400_000, dayStart(now));
    const before = (await dailyEnergy(db, [{ deviceId: inv, ratedPower: 50 }], days)).get(inv)!;
    // the demo was off since three days ago: what the inverter said since then is gone
    const off = new Date(days[0]);
    await db.execute(sql`delete from telemetry_reading where device_id = ${inv} and at >= ${off}`);
    await db.execute(sql`delete from telemetry_rollup where device_id = ${inv} and bucket >= ${off}`);
    await db.execute(
      sql`update telemetry_state set last_at = (select max(at) from telemetry_reading where device_id = ${inv}) where device_id = ${inv}`,
    );
    await fillSimulatorGap(db, s.app.log, now);
    // every day as it was (the closed days' cache forgets a device written to), within what hourly samples
    // miss (on a day the counter restarts at noon, the hour before it)
    const again = (await dailyEnergy(db, [{ deviceId: inv, ratedPower: 50 }], days)).get(inv)!;
    console.log(
      `before ${before.map((e) => e.energy).join(' ')}; after ${again.map((e) => e.energy).join(' ')}`,
    );
    for (const [i, e] of again.entries()) {
      expect(e.energy, dayLabel(days[i])).not.toBeNull();
      expect(e.afterGap ?? false).toBe(false);
      expect(Math.abs(Number(e.energy) - Number(before[i].energy))).toBeLessThanOrEqual(
        0.15 * Number(before[i].energy) + 1,
      );
    }
  });
});
