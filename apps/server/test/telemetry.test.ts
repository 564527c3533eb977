import { createHmac } from 'node:crypto';
import { ALARM_KIND, ALARM_STATE, DEVICE_KIND, type History } from '@smart/contracts';
import { and, eq, sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPassword, deviceIdentity } from '../src/modules/telemetry/broker';
import { rowsOf } from '../src/modules/telemetry/ingest';
import { demoSecret, photoHeaders, signedMessage, trapPhoto } from '../src/modules/telemetry/simulator';
import { deviceAlarm, telemetryState } from '../src/modules/telemetry/tables';
import { areaServer, grantCodes, listedRows, makeRole, serviceCalls, signedInUser } from './fixtures';
import { startTestServer, type TestServer } from './harness';

/**
 * The telemetry core: devices and their secrets, readings over HTTP and MQTT (the embedded broker here;
 * Mosquitto too when MQTT_TEST_URL is set, as in CI), refusals counted, roll-ups and bucketed histories,
 * threshold and offline alarms raised once with two servers, acknowledging and closing, isolation.
 */
let s: TestServer;
let token: string;
let other: string;
beforeAll(async () => {
  ({ s, token, other } = await areaServer(['200031', '遥测他村', 'telemetryOther'], {
    MQTT_PORT: '0',
    TELEMETRY_FLUSH_MS: '20',
  }));
});
afterAll(() => s?.close());

const API = '/api/dfem-hope-manage';
const { get, post } = serviceCalls(
  () => s,
  API,
  () => token,
);

let n = 0;
/** a new device of `kind` in the demo tenant: its id, serial and the secret shown once */
async function newDevice(kind: string = DEVICE_KIND.weather, over: Record<string, unknown> = {}) {
  const serial = `T-${Date.now() % 100000}-${++n}`;
  const res = await post('/smartPlant/deviceManage/submit', {
    name: `测试设备${n}`,
    kind,
    serial,
    reportInterval: 10,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data;
  expect(data.secret).toMatch(/^[\w-]{40,}$/);
  return { id: String(data.id), serial, secret: String(data.secret), kind };
}

const httpUp = (tenant: string, kind: string, serial: string, payload: unknown) =>
  s.app.inject({
    method: 'POST',
    url: `/api/telemetry/${tenant}/${kind}/${serial}/up`,
    payload: payload as object,
  });

/** how a device connects to the embedded broker: its identity as client id and username, its connect password */
function asDevice(d: { kind: string; serial: string; secret: string }) {
  const identity = deviceIdentity('000000', d.kind, d.serial);
  return {
    clientId: identity,
    username: identity,
    password: connectPassword(d.secret, identity),
    reconnectPeriod: 0,
  };
}

/** waits until what was accepted is written */
const settle = () => s.app.telemetry.ingestor.flush();

describe('devices', () => {
  it('a new device gets a secret, shown once: never in its list row or its detail', async () => {
    const d = await newDevice();
    const list = await get(`/smartPlant/deviceManage/page?serial=${d.serial}`);
    const row = listedRows(list.json().data)[0];
    expect(row.serial).toBe(d.serial);
    expect(JSON.stringify(row)).not.toContain(d.secret);
    const detail = await get(`/smartPlant/deviceManage/detail?id=${d.id}`);
    expect(detail.body).not.toContain(d.secret);
    expect(detail.json().data.secret).toBeUndefined();
  });

  it('a serial that cannot be part of a topic is refused, naming the field', async () => {
    const res = await post('/smartPlant/deviceManage/submit', { name: 'x', kind: '1', serial: 'a/b/#' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('serial');
  });

  it('thresholds must name metrics of the kind, within their range', async () => {
    const bad = await post('/smartPlant/deviceManage/submit', {
      name: '阈值',
      kind: DEVICE_KIND.weather,
      serial: `TH-${++n}`,
      thresholds: '{"soilPh":{"low":5}}',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('该类设备没有指标 soilPh');
    const ok = await post('/smartPlant/deviceManage/submit', {
      name: '阈值',
      kind: DEVICE_KIND.weather,
      serial: `TH-${++n}`,
      thresholds: '{"airTemperature":{"high":30}}',
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('resetting the secret makes the old one fail', async () => {
    const d = await newDevice();
    const reset = await post('/smartPlant/deviceManage/secret', { id: d.id });
    expect(reset.statusCode).toBe(200);
    const fresh = reset.json().data.secret as string;
    expect(fresh).not.toBe(d.secret);
    const old = await httpUp(
      '000000',
      d.kind,
      d.serial,
      JSON.parse(signedMessage(d.secret, { values: { airTemperature: 20 } })),
    );
    expect(old.statusCode).toBe(400);
    expect(old.json().msg).toBe('badSignature');
    const now = await httpUp(
      '000000',
      d.kind,
      d.serial,
      JSON.parse(signedMessage(fresh, { values: { airTemperature: 20 } })),
    );
    expect(now.statusCode, now.body).toBe(200);
  });

  it('delete/mark removes a device with the reason kept; its readings are then refused', async () => {
    const d = await newDevice();
    const res = await get(
      `/smartPlant/deviceManage/delete/mark?ids=${d.id}&remark=${encodeURIComponent('设备损坏已拆除')}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(
      listedRows((await get(`/smartPlant/deviceManage/page?serial=${d.serial}`)).json().data),
    ).toHaveLength(0);
    const [row] = rowsOf(
      await s.database.db.execute(sql`select delete_remark, is_deleted from hope_device where id = ${d.id}`),
    );
    expect(row).toEqual({ delete_remark: '设备损坏已拆除', is_deleted: 1 });
    const up = await httpUp(
      '000000',
      d.kind,
      d.serial,
      JSON.parse(signedMessage(d.secret, { values: { airTemperature: 20 } })),
    );
    expect(up.json().msg).toBe('unknownDevice');
    // another tenant's removal of ours is "not found", nothing removed
    const mine = await newDevice();
    expect(
      (await get(`/smartPlant/deviceManage/delete/mark?ids=${mine.id}&remark=x`, other)).statusCode,
    ).toBe(404);
    expect(
      listedRows((await get(`/smartPlant/deviceManage/page?serial=${mine.serial}`)).json().data),
    ).toHaveLength(1);
  });

  it("another tenant's device is not found, and its list does not show ours", async () => {
    const d = await newDevice();
    expect((await get(`/smartPlant/deviceManage/detail?id=${d.id}`, other)).statusCode).toBe(404);
    expect((await get(`/smartPlant/deviceManage/history?deviceId=${d.id}`, other)).statusCode).toBe(404);
    expect((await post('/smartPlant/deviceManage/secret', { id: d.id }, other)).statusCode).toBe(404);
    const theirs = await get(`/smartPlant/deviceManage/page?serial=${d.serial}`, other);
    expect(listedRows(theirs.json().data)).toHaveLength(0);
  });
});

describe('ingestion', () => {
  it('HTTP: readings are stored, rolled up and make the device online with its last values', async () => {
    const d = await newDevice(DEVICE_KIND.weather, { reportInterval: 300 });
    const t0 = Date.now() - 30 * 60_000;
    const readings = Array.from({ length: 30 }, (_, i) => ({
      ts: t0 + i * 60_000,
      values: { airTemperature: 20 + i * 0.1, airHumidity: 60 },
    }));
    const res = await httpUp('000000', d.kind, d.serial, JSON.parse(signedMessage(d.secret, { readings })));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ accepted: 60, refused: 0 });
    await settle();
    const db = s.database.db;
    const [count] = rowsOf(
      await db.execute(sql`select count(*)::int as n from telemetry_reading where device_id = ${d.id}`),
    );
    expect(Number(count.n)).toBe(60);
    const [hour] = rowsOf(
      await db.execute(sql`select sum(n)::int as n, min(low) as lo, max(high) as hi from telemetry_rollup
        where device_id = ${d.id} and metric = 1 and grain = 1`),
    );
    expect(Number(hour.n)).toBe(30);
    expect(Number(hour.lo)).toBeCloseTo(20);
    expect(Number(hour.hi)).toBeCloseTo(22.9);
    const row = listedRows((await get(`/smartPlant/deviceManage/page?serial=${d.serial}`)).json().data)[0];
    expect(row.online).toBe(1);
    expect((row.lastValues as Record<string, number>).airTemperature).toBeCloseTo(22.9);
  });

  it('a wrong secret, a malformed message, an unknown metric and an impossible value are refused and counted', async () => {
    const d = await newDevice();
    const before = structuredClone(s.app.telemetry.ingestor.stats.refused);
    const wrong = await httpUp(
      '000000',
      d.kind,
      d.serial,
      JSON.parse(signedMessage('not-the-secret', { values: { airTemperature: 1 } })),
    );
    expect(wrong.json().msg).toBe('badSignature');
    const malformed = await httpUp('000000', d.kind, d.serial, { data: '{"values":', sig: 'zz' });
    expect(malformed.json().msg).toBe('malformed');
    const unknown = await httpUp(
      '000000',
      d.kind,
      'NO-SUCH-DEVICE',
      JSON.parse(signedMessage(d.secret, { values: {} })),
    );
    expect(unknown.json().msg).toBe('unknownDevice');
    // one good value beside an impossible one and an unknown metric: the good one is kept
    const mixed = await httpUp(
      '000000',
      d.kind,
      d.serial,
      JSON.parse(signedMessage(d.secret, { values: { airTemperature: 21, airHumidity: 140, soilPh: 7 } })),
    );
    expect(mixed.json().data).toEqual({ accepted: 1, refused: 2 });
    const after = s.app.telemetry.ingestor.stats.refused;
    expect(after.badSignature - before.badSignature).toBe(1);
    expect(after.malformed - before.malformed).toBe(1);
    expect(after.unknownDevice - before.unknownDevice).toBe(1);
    expect(after.outOfRange - before.outOfRange).toBe(1);
    expect(after.unknownMetric - before.unknownMetric).toBe(1);
    await settle();
    const [c] = rowsOf(
      await s.database.db.execute(
        sql`select count(*)::int as n from telemetry_reading where device_id = ${d.id}`,
      ),
    );
    expect(Number(c.n)).toBe(1);
    // a log line says why, without the secret
    expect(s.logs.join('')).toContain('telemetry reading refused');
    expect(s.logs.join('')).not.toContain(d.secret);
  });

  it('a device of another tenant cannot be reached through ours, nor ours through its topic', async () => {
    const d = await newDevice();
    const res = await httpUp(
      '200031',
      d.kind,
      d.serial,
      JSON.parse(signedMessage(d.secret, { values: { airTemperature: 20 } })),
    );
    expect(res.json().msg).toBe('unknownDevice');
  });

  it('MQTT through the embedded broker: a published reading arrives', async () => {
    const d = await newDevice();
    const port = s.app.telemetry.brokerPort;
    expect(port).toBeGreaterThan(0);
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, asDevice(d));
    const stored = s.app.telemetry.ingestor.stats.accepted;
    await client.publishAsync(
      `000000/${d.kind}/${d.serial}/up`,
      signedMessage(d.secret, { values: { airTemperature: 25.5 } }),
      { qos: 1 },
    );
    await client.endAsync();
    await expect.poll(() => s.app.telemetry.ingestor.stats.accepted - stored, { timeout: 5000 }).toBe(1);
    await settle();
    const [st] = await s.database.db.select().from(telemetryState).where(eq(telemetryState.deviceId, d.id));
    expect(st.lastValues.airTemperature).toBe(25.5);
  });

  it('the embedded broker refuses other topics and subscriptions to readings', async () => {
    const d = await newDevice();
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${s.app.telemetry.brokerPort}`, asDevice(d));
    // reading other devices' topics is refused (granted 128, which the client reports as an error)
    await expect(client.subscribeAsync('+/+/+/up')).rejects.toThrow();
    await expect(client.subscribeAsync('000000/1/WS-0001/up')).rejects.toThrow();
    // another device's downlink too, even named exactly
    await expect(client.subscribeAsync('000000/1/WS-0001/down')).rejects.toThrow();
    // a device's own downlink is allowed
    expect((await client.subscribeAsync(`000000/${d.kind}/${d.serial}/down`))[0].qos).toBe(0);
    await client.endAsync();
  });

  it.runIf(process.env.MQTT_TEST_URL)(
    'MQTT through Mosquitto: two servers share the subscription, each reading is stored once',
    async () => {
      const url = process.env.MQTT_TEST_URL!;
      const a = await startTestServer({ MQTT_URL: url, TELEMETRY_FLUSH_MS: '20' }, { alongside: s });
      const b = await startTestServer({ MQTT_URL: url, TELEMETRY_FLUSH_MS: '20' }, { alongside: s });
      try {
        const tk = token;
        const res = await serviceCalls(
          () => a,
          API,
          () => tk,
        ).post('/smartPlant/deviceManage/submit', {
          name: 'mosquitto',
          kind: '1',
          serial: `MQ-${Date.now() % 100000}`,
        });
        const dev = res.json().data;
        await new Promise((r) => setTimeout(r, 500)); // both subscriptions in place
        const client = await mqtt.connectAsync(url);
        const t0 = Date.now() - 60_000;
        for (let i = 0; i < 20; i++)
          await client.publishAsync(
            `000000/1/${dev.serial}/up`,
            signedMessage(dev.secret, { ts: t0 + i * 1000, values: { airTemperature: 20 } }),
            { qos: 1 },
          );
        await client.endAsync();
        const taken = () => a.app.telemetry.ingestor.stats.accepted + b.app.telemetry.ingestor.stats.accepted;
        await expect.poll(taken, { timeout: 10_000 }).toBeGreaterThanOrEqual(20);
        await a.app.telemetry.ingestor.flush();
        await b.app.telemetry.ingestor.flush();
        const [c] = rowsOf(
          await a.database.db.execute(
            sql`select count(*)::int as n from telemetry_reading where device_id = ${dev.id}`,
          ),
        );
        // what each server took, refused and found stored already, should the count differ
        const why = JSON.stringify([a.app.telemetry.ingestor.stats, b.app.telemetry.ingestor.stats]);
        expect(Number(c.n), why).toBe(20);
      } finally {
        await b.close();
        await a.close();
      }
    },
  );
});

describe('trap photos', () => {
  const upload = (
    serial: string,
    image: Buffer,
    headers: Record<string, string>,
    kind: string = DEVICE_KIND.pest,
  ) =>
    s.app.inject({
      method: 'POST',
      url: `/api/telemetry/000000/${kind}/${serial}/photo`,
      headers,
      payload: image,
    });

  it('a lamp uploads a signed photo: stored, listed in 虫情图片 and served; forgeries and other files are refused', async () => {
    const lamp = await newDevice(DEVICE_KIND.pest);
    const image = trapPhoto(lamp.serial, Date.now());
    const ok = await upload(lamp.serial, image, photoHeaders(lamp.secret, image));
    expect(ok.statusCode, ok.body).toBe(200);
    const rows = listedRows((await get(`/pest/photo/page?deviceId=${lamp.id}`)).json().data);
    expect(rows).toHaveLength(1);
    const served = await s.app.inject({ method: 'GET', url: String(rows[0].photo) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    // a wrong secret; an old signature replayed; a text file signed correctly; a weather station's upload
    expect((await upload(lamp.serial, image, photoHeaders('nope', image))).json().msg).toBe('badSignature');
    expect(
      (await upload(lamp.serial, image, photoHeaders(lamp.secret, image, Date.now() - 3_600_000))).json().msg,
    ).toBe('malformed');
    const text = Buffer.from('#!/bin/sh\necho pwned\n');
    expect(
      (
        await upload(lamp.serial, text, { ...photoHeaders(lamp.secret, text), 'content-type': 'image/png' })
      ).json().msg,
    ).toBe('notAnImage');
    const station = await newDevice(DEVICE_KIND.weather);
    expect(
      (await upload(station.serial, image, photoHeaders(station.secret, image), DEVICE_KIND.weather)).json()
        .msg,
    ).toBe('unknownDevice');
    expect(listedRows((await get(`/pest/photo/page?deviceId=${lamp.id}`)).json().data)).toHaveLength(1);
    // written by the server only; another tenant sees none
    expect(
      (
        await post('/pest/photo/submit', {
          deviceId: lamp.id,
          takenAt: '2026-01-01 00:00:00',
          photo: rows[0].photo,
        })
      ).statusCode,
    ).toBe(403);
    expect(listedRows((await get(`/pest/photo/page?deviceId=${lamp.id}`, other)).json().data)).toHaveLength(
      0,
    );
  });
});

describe('history', () => {
  it('a year of 5-minute readings answers as at most 1 000 buckets with min and max', async () => {
    const d = await newDevice(DEVICE_KIND.soil);
    const db = s.database.db;
    const end = Date.now() - (Date.now() % 300_000);
    const start = end - 365 * 86_400_000;
    // a year written as the ingestion writes it, in batches through the same writer
    const { addReading, Batch, writeBatch } = await import('../src/modules/telemetry/ingest');
    const { metricByCode } = await import('@smart/contracts');
    const info = {
      id: d.id,
      tenantId: '000000',
      kind: '2' as const,
      name: 'x',
      secret: '',
      thresholds: null,
      responsibleId: null,
      metrics: new Set(['soilMoisture']),
    };
    const metric = metricByCode.get('soilMoisture')!;
    let b = new Batch();
    for (let at = start; at < end; at += 300_000) {
      addReading(b, info, metric, at, 20 + 10 * Math.sin(at / 86_400_000));
      if (b.n >= 20_000) {
        await writeBatch(db, b, { alarms: false });
        b = new Batch();
      }
    }
    await writeBatch(db, b, { alarms: false });
    const res = await get(
      `/smartPlant/deviceManage/history?deviceId=${d.id}&metric=soilMoisture&from=${start}&to=${end}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const h = res.json().data as History;
    expect(h.points.length).toBeGreaterThan(900);
    expect(h.points.length).toBeLessThanOrEqual(1000);
    expect(h.step).toBe(9 * 3600);
    for (const [, avg, lo, hi] of h.points) {
      expect(lo).toBeLessThanOrEqual(avg + 1e-9);
      expect(hi).toBeGreaterThanOrEqual(avg - 1e-9);
    }
    // a day: raw 5-minute readings (288 of them), no buckets
    const day = await get(
      `/smartPlant/deviceManage/history?deviceId=${d.id}&metric=soilMoisture&from=${end - 86_400_000}&to=${end}`,
    );
    expect((day.json().data as History).step).toBe(0);
    expect((day.json().data as History).points).toHaveLength(288);
    // a week at most 100 points: LTTB keeps 100 of the 2 016
    const week = await get(
      `/smartPlant/deviceManage/history?deviceId=${d.id}&metric=soilMoisture&from=${end - 7 * 86_400_000}&to=${end}&points=100`,
    );
    expect((week.json().data as History).points.length).toBeLessThanOrEqual(100);
    // a metric the kind does not report is a 400
    expect(
      (await get(`/smartPlant/deviceManage/history?deviceId=${d.id}&metric=airTemperature`)).statusCode,
    ).toBe(400);
    // a year of readings is 105 120 rows written through the unique index: minutes on a loaded machine
  }, 180_000);

  it('readings export as Excel', async () => {
    const d = await newDevice();
    await httpUp(
      '000000',
      d.kind,
      d.serial,
      JSON.parse(signedMessage(d.secret, { values: { airTemperature: 19.5, airHumidity: 55 } })),
    );
    await settle();
    const res = await get(`/smartPlant/deviceManage/readings/export?deviceId=${d.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const { readSheet } = await import('./fixtures');
    const rows = await readSheet(res.rawPayload);
    expect(rows[0]).toEqual(['时间', '指标', '数值', '单位']);
    expect(
      rows
        .slice(1)
        .map((r) => r[1])
        .sort(),
    ).toEqual(['空气温度', '空气湿度']);
  });
});

describe('alarms', () => {
  const alarmsOf = (deviceId: string) =>
    s.database.db
      .select()
      .from(deviceAlarm)
      .where(and(eq(deviceAlarm.deviceId, deviceId), eq(deviceAlarm.isDeleted, 0)));

  it('a reading past a threshold raises one alarm (two servers, many crossings), which recovers, is acknowledged and closed', async () => {
    const d = await newDevice(DEVICE_KIND.weather, {
      thresholds: '{"airTemperature":{"high":30}}',
      responsibleId: '1123598821738675201',
    });
    const twin = await startTestServer({ TELEMETRY_FLUSH_MS: '20' }, { alongside: s });
    try {
      const hot = (i: number) =>
        signedMessage(d.secret, { ts: Date.now() - 60_000 + i, values: { airTemperature: 35 + i } });
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 ? twin : s).app.telemetry.ingestor.accept('000000', d.kind, d.serial, hot(i)),
        ),
      );
      await Promise.all([s.app.telemetry.ingestor.flush(), twin.app.telemetry.ingestor.flush()]);
    } finally {
      await twin.close();
    }
    let alarms = await alarmsOf(d.id);
    expect(alarms).toHaveLength(1);
    expect(alarms[0].kind).toBe(ALARM_KIND.threshold);
    expect(alarms[0].metric).toBe('airTemperature');
    expect(alarms[0].state).toBe(ALARM_STATE.raised);
    // the responsible person was told
    const [notice] = rowsOf(
      await s.database.db.execute(
        sql`select title from flow_notice where process_instance_id = ${`device-alarm:${alarms[0].id}`}`,
      ),
    );
    expect(String(notice.title)).toContain('空气温度');
    // back below: recovered
    await s.app.telemetry.ingestor.accept(
      '000000',
      d.kind,
      d.serial,
      signedMessage(d.secret, { values: { airTemperature: 25 } }),
    );
    await settle();
    alarms = await alarmsOf(d.id);
    expect(alarms[0].recoveredAt).not.toBeNull();
    // listed in the caller's language
    const listed = listedRows((await get(`/deviceAlarm/page?deviceId=${d.id}`)).json().data);
    expect(listed[0].kindName).toBe('超出阈值');
    // acknowledged, then closed with a note; closing twice is refused
    const id = alarms[0].id;
    expect((await post('/deviceAlarm/acknowledge', { id })).statusCode).toBe(200);
    expect((await post('/deviceAlarm/close', { id, note: '' })).statusCode).toBe(400);
    expect((await post('/deviceAlarm/close', { id, note: '已处理' })).statusCode).toBe(200);
    expect((await post('/deviceAlarm/close', { id, note: '再次' })).statusCode).toBe(400);
    const [closed] = await alarmsOf(d.id);
    expect(closed.state).toBe(ALARM_STATE.closed);
    expect(closed.note).toBe('已处理');
    // alarms are written by the server only
    expect(
      (
        await post('/deviceAlarm/submit', {
          deviceId: d.id,
          kind: '1',
          state: '1',
          raisedAt: '2026-01-01 00:00:00',
        })
      ).statusCode,
    ).toBe(403);
    // another tenant cannot touch it
    expect((await post('/deviceAlarm/acknowledge', { id }, other)).statusCode).toBe(404);
  });

  it('a device silent past three intervals raises one offline alarm with two servers checking; reporting again recovers it', async () => {
    const d = await newDevice(DEVICE_KIND.weather, { reportInterval: 10 });
    await s.app.telemetry.ingestor.accept(
      '000000',
      d.kind,
      d.serial,
      signedMessage(d.secret, { ts: Date.now() - 120_000, values: { airTemperature: 20 } }),
    );
    await settle();
    const twin = await startTestServer({}, { alongside: s });
    try {
      const raised = await Promise.all([
        s.app.telemetry.checkOffline(),
        twin.app.telemetry.checkOffline(),
        s.app.telemetry.checkOffline(),
      ]);
      expect(raised.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    } finally {
      await twin.close();
    }
    await s.app.telemetry.checkOffline();
    let alarms = (await alarmsOf(d.id)).filter((a) => a.kind === ALARM_KIND.offline);
    expect(alarms).toHaveLength(1);
    const row = listedRows((await get(`/smartPlant/deviceManage/page?serial=${d.serial}`)).json().data)[0];
    expect(row.online).toBe(0);
    await s.app.telemetry.ingestor.accept(
      '000000',
      d.kind,
      d.serial,
      signedMessage(d.secret, { values: { airTemperature: 20 } }),
    );
    await settle();
    alarms = (await alarmsOf(d.id)).filter((a) => a.kind === ALARM_KIND.offline);
    expect(alarms[0].recoveredAt).not.toBeNull();
  });

  it('alarm counts per tenant', async () => {
    const mine = await get('/deviceAlarm/counts');
    expect(mine.statusCode).toBe(200);
    const theirs = await get('/deviceAlarm/counts', other);
    expect(theirs.json().data).toEqual([]);
  });
});

describe('monitoring screens', () => {
  it('the demo village has live weather, soil, pest and slope devices, each page asking for its code', async () => {
    const weather = await get('/agricultureWeather/page?name=村部');
    expect(weather.statusCode).toBe(200);
    expect(listedRows(weather.json().data).some((r) => r.serial === 'WS-0001')).toBe(true);
    // one character, found through the name's characters index (platform/crud/query.ts containsFilter)
    const byOne = listedRows((await get('/agricultureWeather/page?name=部')).json().data);
    expect(byOne.some((r) => r.serial === 'WS-0001')).toBe(true);
    expect(byOne.every((r) => String(r.name).includes('部'))).toBe(true);
    const info = await get('/agricultureWeather/device/info?deviceId=1190000000001800001');
    expect(info.json().data.metrics.map((m: { code: string }) => m.code)).toContain('airTemperature');
    expect(info.json().data.metrics[0].todayMax).not.toBeNull();
    expect((await get('/soil/page')).json().data.total).toBeGreaterThanOrEqual(2);
    expect((await get('/slopeDetection/page')).json().data.total).toBeGreaterThanOrEqual(1);
    const slope = await serviceCalls(
      () => s,
      '/api/dfem-hope-slope',
      () => token,
    ).get('/slopeDevice/page');
    expect(slope.statusCode, slope.body).toBe(200);
    expect(slope.json().data.total).toBeGreaterThanOrEqual(1);
    const pests = await get('/pest/detail/list');
    expect(pests.statusCode, pests.body).toBe(200);
    expect(
      pests.json().data.total.find((x: { key: string }) => x.key === 'pestPlanthopper').value,
    ).toBeGreaterThan(0);
    expect((await get('/pest/bulb/info?deviceId=1190000000001800003')).statusCode).toBe(200);
    expect((await get('/common/index/today/harmful')).statusCode).toBe(200);
    expect((await get('/common/index/other/harmful')).json().data.byDay.length).toBeGreaterThan(0);
    // the other village sees none of ours
    expect((await get('/agricultureWeather/page', other)).json().data.total).toBe(0);
    expect(
      (await get('/agricultureWeather/device/info?deviceId=1190000000001800001', other)).statusCode,
    ).toBe(404);
  });

  it('a user without the screen code gets 403; with it, the history of its devices too', async () => {
    const role = await makeRole(s.database.db, '000000', 'weatherOnly');
    await grantCodes(s.database.db, role, ['device_weather']);
    const u = await signedInUser(s, 'weatherWatcher', [role]);
    expect((await get('/agricultureWeather/page', u.token)).statusCode).toBe(200);
    expect((await get('/soil/page', u.token)).statusCode).toBe(403);
    expect(
      (await get('/smartPlant/deviceManage/history?deviceId=1190000000001800001', u.token)).statusCode,
    ).toBe(200);
    expect(
      (await post('/smartPlant/deviceManage/secret', { id: '1190000000001800001' }, u.token)).statusCode,
    ).toBe(403);
  });

  it('the demo devices carry the demo secret the simulator signs with', () => {
    expect(demoSecret('WS-0001')).toBe(
      createHmac('sha256', 'smart-demo-device').update('WS-0001').digest('base64url'),
    );
  });
});
