import { type Socket, connect as tcpConnect } from 'node:net';
import { DEVICE_KIND } from '@smart/contracts';
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPassword, deviceIdentity } from '../src/modules/telemetry/broker';
import { type Ingestor, rowsOf } from '../src/modules/telemetry/ingest';
import { signedMessage } from '../src/modules/telemetry/simulator';
import { deviceAlarm } from '../src/modules/telemetry/tables';
import { mountedResource } from '../src/platform/crud/refs';
import { schema } from '../src/platform/db';
import { menuId } from '../src/seed/menus';
import {
  areaServer,
  clearCaches,
  grantCodes,
  listedRows,
  makeRole,
  serviceCalls,
  signedInUser,
} from './fixtures';
import { startTestServer, type TestServer } from './harness';

/**
 * Issue 31, items 1, 2, 5 and 6, done as the attacker did them: an anonymous flood of the embedded broker
 * (refused at CONNECT while the API keeps answering), a 100 MB publish (refused on its header), a device's
 * client id taken by another client (refused; the device stays), a captured reading replayed over MQTT and
 * HTTP (stored once), old readings (refused, unless in a signed backfill), and alarms of devices a user
 * cannot see (invisible in the list, the counts, the home figure and the notices).
 */
let s: TestServer;
let token: string;
beforeAll(async () => {
  ({ s, token } = await areaServer(['200032', '遥测安全村', 'telemetrySec'], {
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
async function newDevice(kind: string = DEVICE_KIND.weather, over: Record<string, unknown> = {}) {
  const serial = `S-${Date.now() % 100000}-${++n}`;
  const res = await post('/smartPlant/deviceManage/submit', {
    name: `安全测试设备${n}`,
    kind,
    serial,
    reportInterval: 10,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data;
  return { id: String(data.id), serial, secret: String(data.secret), kind, connect: data.connect };
}

const identityOf = (d: { kind: string; serial: string }) => deviceIdentity('000000', d.kind, d.serial);
const asDevice = (d: { kind: string; serial: string; secret: string }) => ({
  clientId: identityOf(d),
  username: identityOf(d),
  password: connectPassword(d.secret, identityOf(d)),
  reconnectPeriod: 0,
});
const brokerUrl = () => `mqtt://127.0.0.1:${s.app.telemetry.brokerPort}`;
const stats = () => s.app.telemetry.ingestor.stats;
const broker = () => s.app.telemetry.brokerStats;

const packet = (p: object) => mqttPacket.generate(p as mqttPacket.Packet);
const connectPacket = (opts: { clientId: string; username?: string; password?: string }) =>
  packet({
    cmd: 'connect',
    protocolId: 'MQTT',
    protocolVersion: 4,
    clean: true,
    keepalive: 60,
    clientId: opts.clientId,
    ...(opts.username ? { username: opts.username } : {}),
    ...(opts.password ? { password: Buffer.from(opts.password) } : {}),
  });
const publishPacket = (topic: string, payload: string) =>
  packet({ cmd: 'publish', topic, payload, qos: 0, retain: false, dup: false });

/** a raw TCP connection to the broker: what it was sent, whether and when the broker closed it */
function rawClient() {
  const socket: Socket = tcpConnect(s.app.telemetry.brokerPort, '127.0.0.1');
  socket.on('error', () => {});
  const received: Buffer[] = [];
  socket.on('data', (d) => received.push(d));
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  const opened = new Promise<void>((r) => socket.once('connect', () => r()));
  return { socket, closed, opened, received };
}

const httpUp = (kind: string, serial: string, payload: string) =>
  s.app.inject({
    method: 'POST',
    url: `/api/telemetry/000000/${kind}/${serial}/up`,
    headers: { 'content-type': 'application/json' },
    payload,
  });

async function readingsOf(deviceId: string) {
  const [c] = rowsOf(
    await s.database.db.execute(
      sql`select count(*)::int as n from telemetry_reading where device_id = ${deviceId}`,
    ),
  );
  return Number(c.n);
}

describe('the embedded broker: who may connect, and how much', () => {
  it('an anonymous flood of 20 000 publishes is refused at CONNECT; an API call during it answers', async () => {
    const before = {
      messages: stats().messages,
      refused: broker().refusedConnections,
      tooFast: broker().tooFast,
    };
    const flood = Buffer.concat(
      Array.from({ length: 2_000 }, (_, i) =>
        publishPacket(`000000/1/FLOOD-${i}/up`, '{"data":"{}","sig":"00"}'),
      ),
    );
    // ten anonymous connections, each CONNECT followed at once by 2 000 publishes for unknown devices
    const clients = Array.from({ length: 10 }, () => rawClient());
    await Promise.all(clients.map((c) => c.opened));
    const t0 = performance.now();
    for (const c of clients)
      c.socket.write(Buffer.concat([connectPacket({ clientId: `flood-${n++}` }), flood]));
    // an ordinary API call during the flood
    const during = await get('/smartPlant/deviceManage/page?size=10');
    const latency = performance.now() - t0;
    expect(during.statusCode).toBe(200);
    console.log(`API call during the anonymous flood answered in ${latency.toFixed(0)} ms`);
    await Promise.all(clients.map((c) => c.closed));
    // every connection ended: refused at CONNECT (CONNACK 5, not authorized), or cut by its publish rate
    // before aedes had even answered; not one publish reached ingestion
    for (const c of clients) {
      const answer = Buffer.concat(c.received);
      if (answer.length) expect([answer[0], answer[3]]).toEqual([0x20, 5]);
    }
    const ended = broker().refusedConnections - before.refused + (broker().tooFast - before.tooFast);
    expect(ended).toBe(10);
    expect(stats().messages - before.messages).toBe(0);
    // anonymous through mqtt.js too
    await expect(mqtt.connectAsync(brokerUrl(), { reconnectPeriod: 0 })).rejects.toThrow();
  });

  it('a device publishing far past its rate is disconnected; little of its flood reaches ingestion', async () => {
    const d = await newDevice();
    const id = identityOf(d);
    const before = { messages: stats().messages, tooFast: broker().tooFast };
    const c = rawClient();
    await c.opened;
    const message = signedMessage(d.secret, { values: { airTemperature: 20 } });
    const flood = Buffer.concat(Array.from({ length: 20_000 }, () => publishPacket(`${id}/up`, message)));
    c.socket.write(
      Buffer.concat([
        connectPacket({ clientId: id, username: id, password: connectPassword(d.secret, id) }),
        flood,
      ]),
    );
    const t0 = performance.now();
    const during = await get('/smartPlant/deviceManage/page?size=10');
    console.log(`API call during a device's flood answered in ${(performance.now() - t0).toFixed(0)} ms`);
    expect(during.statusCode).toBe(200);
    await c.closed;
    expect(broker().tooFast - before.tooFast).toBe(1);
    // its burst (ten seconds' worth at the default 20 a second) at most, not 20 000
    expect(stats().messages - before.messages).toBeLessThanOrEqual(201);
  });

  it('a 100 MB publish is refused on its header, before its body is read', async () => {
    const d = await newDevice();
    const id = identityOf(d);
    const before = broker().tooLarge;
    const rss = process.memoryUsage().rss;
    const c = rawClient();
    await c.opened;
    c.socket.write(connectPacket({ clientId: id, username: id, password: connectPassword(d.secret, id) }));
    await expect.poll(() => c.received.length).toBeGreaterThan(0);
    expect(Buffer.concat(c.received)[3]).toBe(0); // connected
    // a PUBLISH declaring 100 MB: its fixed header, then the body a megabyte at a time while the socket lasts
    const size = 100 * 1024 * 1024;
    const header = [0x30];
    for (let x = size; ; ) {
      const byte = x % 128;
      x = Math.floor(x / 128);
      header.push(x ? byte | 0x80 : byte);
      if (!x) break;
    }
    let open = true;
    c.closed.then(() => {
      open = false;
    });
    c.socket.write(Buffer.from(header));
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let sent = 0;
    while (open && sent < size) {
      const more = c.socket.write(chunk);
      sent += chunk.length;
      if (!more) await Promise.race([new Promise((r) => c.socket.once('drain', r)), c.closed]);
    }
    await c.closed;
    expect(broker().tooLarge - before).toBe(1);
    console.log(
      `100 MB publish: connection ended after ${(sent / 1024 / 1024).toFixed(0)} MB written by the client; ` +
        `server rss ${((process.memoryUsage().rss - rss) / 1024 / 1024).toFixed(0)} MB more`,
    );
    expect(sent).toBeLessThan(size);
    // an anonymous CONNECT declaring 100 MB ends the same way
    const a = rawClient();
    await a.opened;
    a.socket.write(Buffer.from([0x10, 0x80, 0x80, 0x80, 0x32]));
    await a.closed;
    expect(broker().tooLarge - before).toBe(2);
  });

  it("a device's client id belongs to it: a second client with it is refused, the device stays connected", async () => {
    const d = await newDevice();
    const id = identityOf(d);
    const device = await mqtt.connectAsync(brokerUrl(), asDevice(d));
    // an anonymous client with the device's client id
    await expect(mqtt.connectAsync(brokerUrl(), { clientId: id, reconnectPeriod: 0 })).rejects.toThrow();
    // the right credentials, a second time
    await expect(mqtt.connectAsync(brokerUrl(), asDevice(d))).rejects.toThrow(/identifier rejected/i);
    // the device's credentials under another client id
    await expect(
      mqtt.connectAsync(brokerUrl(), { ...asDevice(d), clientId: 'someone-else' }),
    ).rejects.toThrow(/identifier rejected/i);
    // a wrong password, another device's identity
    await expect(
      mqtt.connectAsync(brokerUrl(), { ...asDevice(d), password: connectPassword('guess', id) }),
    ).rejects.toThrow();
    await expect(
      mqtt.connectAsync(brokerUrl(), { ...asDevice({ ...d, serial: 'WS-0001' }), password: 'x'.repeat(64) }),
    ).rejects.toThrow();
    // the device was not kicked: it still publishes
    expect(device.connected).toBe(true);
    const accepted = stats().accepted;
    await device.publishAsync(`${id}/up`, signedMessage(d.secret, { values: { airTemperature: 22 } }), {
      qos: 1,
    });
    await expect.poll(() => stats().accepted - accepted, { timeout: 5000 }).toBe(1);
    // it may subscribe to its own downlink only; publishing to another's topic ends its connection
    expect((await device.subscribeAsync(`${id}/down`))[0].qos).toBe(0);
    await expect(device.subscribeAsync('000000/1/WS-0001/down')).rejects.toThrow();
    await device.endAsync();
    // once it is gone, it may connect again
    const again = await mqtt.connectAsync(brokerUrl(), asDevice(d));
    expect(again.connected).toBe(true);
    await again.endAsync();
  });

  it('the device secret answer says what the device connects with', async () => {
    const d = await newDevice();
    expect(d.connect).toEqual({
      clientId: identityOf(d),
      username: identityOf(d),
      password: connectPassword(d.secret, identityOf(d)),
      topic: `${identityOf(d)}/up`,
    });
    const reset = await post('/smartPlant/deviceManage/secret', { id: d.id });
    const answer = reset.json().data;
    expect(answer.connect.password).toBe(connectPassword(answer.secret, identityOf(d)));
    // the old connect password stops working at once
    await expect(mqtt.connectAsync(brokerUrl(), asDevice(d))).rejects.toThrow();
    const c = await mqtt.connectAsync(brokerUrl(), asDevice({ ...d, secret: answer.secret }));
    await c.endAsync();
  });

  it('past the broker-wide rate, publishes are dropped, not ingested', async () => {
    const b = await startTestServer(
      { MQTT_PORT: '0', TELEMETRY_FLUSH_MS: '20', MQTT_RATE_TOTAL: '5', MQTT_RATE_PER_DEVICE: '1000' },
      { alongside: s },
    );
    try {
      const d = await newDevice();
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${b.app.telemetry.brokerPort}`, asDevice(d));
      for (let i = 0; i < 100; i++)
        client.publish(
          `${identityOf(d)}/up`,
          signedMessage(d.secret, { ts: Date.now() - i * 1000, values: { airTemperature: 20 } }),
        );
      await expect.poll(() => b.app.telemetry.brokerStats.dropped, { timeout: 10_000 }).toBeGreaterThan(50);
      await client.endAsync();
      expect(b.app.telemetry.ingestor.stats.messages).toBeLessThanOrEqual(
        100 - b.app.telemetry.brokerStats.dropped,
      );
    } finally {
      await b.close();
    }
  });
});

describe('replays and the clock window', () => {
  it('one captured message resent 5 times over MQTT and 5 times over HTTP is stored once', async () => {
    const d = await newDevice();
    const captured = signedMessage(d.secret, { ts: Date.now() - 5_000, values: { airTemperature: 23.5 } });
    expect((await httpUp(d.kind, d.serial, captured)).statusCode).toBe(200);
    await s.app.telemetry.ingestor.flush();
    expect(await readingsOf(d.id)).toBe(1);
    const duplicates = stats().duplicates;
    const client = await mqtt.connectAsync(brokerUrl(), asDevice(d));
    const messages = stats().messages;
    for (let i = 0; i < 5; i++) await client.publishAsync(`${identityOf(d)}/up`, captured, { qos: 1 });
    await client.endAsync();
    await expect.poll(() => stats().messages - messages, { timeout: 5000 }).toBe(5);
    for (let i = 0; i < 5; i++) expect((await httpUp(d.kind, d.serial, captured)).statusCode).toBe(200);
    await s.app.telemetry.ingestor.flush();
    expect(await readingsOf(d.id)).toBe(1);
    expect(stats().duplicates - duplicates).toBe(10);
    // the roll-ups counted it once too
    const [roll] = rowsOf(
      await s.database.db.execute(
        sql`select sum(n)::int as n, sum(total) as t from telemetry_rollup where device_id = ${d.id} and grain = 1`,
      ),
    );
    expect(Number(roll.n)).toBe(1);
    expect(Number(roll.t)).toBeCloseTo(23.5);
  });

  it('an old reading is refused, a future one too; a signed backfill is accepted, within its own bound', async () => {
    const d = await newDevice();
    const badTime = stats().refused.badTime;
    const day = 86_400_000;
    const old = await httpUp(
      d.kind,
      d.serial,
      signedMessage(d.secret, { ts: Date.now() - 2 * day, values: { airTemperature: 18 } }),
    );
    expect(old.json().data).toMatchObject({ accepted: 0, refused: 1 });
    const future = await httpUp(
      d.kind,
      d.serial,
      signedMessage(d.secret, { ts: Date.now() + 3_600_000, values: { airTemperature: 18 } }),
    );
    expect(future.json().data).toMatchObject({ accepted: 0, refused: 1 });
    expect(stats().refused.badTime - badTime).toBe(2);
    // a device's backlog after an outage: marked as a backfill inside the signed data
    const readings = Array.from({ length: 48 }, (_, i) => ({
      ts: Date.now() - 3 * day + i * 3_600_000,
      values: { airTemperature: 15 + i / 10 },
    }));
    const backfill = await httpUp(d.kind, d.serial, signedMessage(d.secret, { backfill: true, readings }));
    expect(backfill.json().data).toEqual({ accepted: 48, refused: 0 });
    // the flag outside the signed data counts for nothing (the signature covers only `data`)
    const unsigned = JSON.parse(signedMessage(d.secret, { readings: readings.slice(0, 1) }));
    const forged = await httpUp(d.kind, d.serial, JSON.stringify({ ...unsigned, backfill: true }));
    expect(forged.json().data).toMatchObject({ accepted: 0 });
    // a backfill reaches back a year at most
    const tooOld = await httpUp(
      d.kind,
      d.serial,
      signedMessage(d.secret, { backfill: true, ts: Date.now() - 400 * day, values: { airTemperature: 1 } }),
    );
    expect(tooOld.json().data).toMatchObject({ accepted: 0, refused: 1 });
    await s.app.telemetry.ingestor.flush();
    expect(await readingsOf(d.id)).toBe(48);
  });
});

describe('alarms follow the devices’ data scope', () => {
  it('a user who sees no device sees no alarm: list, counts, home figure, notices', async () => {
    const db = s.database.db;
    // an alarm of a device that has one, raised for a responsible person who will see no device
    const role = await makeRole(db, '000000', 'noDevices');
    const alarms = mountedResource('deviceAlarm').def.permission;
    const devices = mountedResource('device').def.permission;
    await grantCodes(db, role, [alarms, `${alarms}_view`, devices]);
    const u = await signedInUser(s, 'blindWatcher', [role]);
    // the data scope on devices lets nothing through (a custom scope no device matches)
    const [scope] = await db
      .insert(schema.scopeData)
      .values({
        menuId: menuId(devices),
        resourceCode: 'device',
        scopeName: 'no device',
        scopeType: 5,
        scopeValue: JSON.stringify({ field: 'serial', op: 'eq', value: 'NO-SUCH-SERIAL' }),
      })
      .returning({ id: schema.scopeData.id });
    await db.insert(schema.roleScope).values({ scopeCategory: 1, scopeId: scope.id, roleId: role });
    clearCaches();
    const d = await newDevice(DEVICE_KIND.weather, {
      thresholds: '{"airTemperature":{"high":30}}',
      responsibleId: u.id,
    });
    expect(
      (await httpUp(d.kind, d.serial, signedMessage(d.secret, { values: { airTemperature: 39 } })))
        .statusCode,
    ).toBe(200);
    await s.app.telemetry.ingestor.flush();
    const [{ total }] = rowsOf(
      await db.execute(sql`select count(*)::int as total from ${deviceAlarm} where is_deleted = 0`),
    );
    expect(Number(total)).toBeGreaterThan(0);
    // the administrator sees the alarms; the user none of them
    const adminList = await get('/deviceAlarm/page?size=100');
    expect(adminList.json().data.total).toBeGreaterThan(0);
    expect((await get('/smartPlant/deviceManage/page', u.token)).json().data.total).toBe(0);
    const list = await get('/deviceAlarm/page?size=100', u.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.total).toBe(0);
    expect(listedRows(list.json().data)).toEqual([]);
    const counts = await get('/deviceAlarm/counts', u.token);
    expect(counts.statusCode, counts.body).toBe(200);
    expect(counts.json().data).toEqual([]);
    // nor by id
    const anAlarm = listedRows(adminList.json().data)[0];
    expect((await get(`/deviceAlarm/detail?id=${anAlarm.id}`, u.token)).statusCode).toBe(404);
    // the home page's figure
    const home = await s.app.inject({
      method: 'GET',
      url: '/api/dfem-desk/home',
      headers: { 'blade-auth': `bearer ${u.token}` },
    });
    expect(home.statusCode, home.body).toBe(200);
    const figure = (home.json().data.figures as { key: string; value: number }[]).find(
      (f) => f.key === 'openAlarms',
    );
    expect(figure?.value ?? 0).toBe(0);
    // and no notice of the device's alarm reached the responsible person who cannot see the device
    const notices = await s.app.inject({
      method: 'GET',
      url: '/api/dfem-flow/work/notice-list',
      headers: { 'blade-auth': `bearer ${u.token}` },
    });
    const [{ notes }] = rowsOf(
      await db.execute(sql`select count(*)::int as notes from flow_notice where user_id = ${u.id}`),
    );
    expect(Number(notes)).toBe(0);
    expect(notices.statusCode === 403 || notices.json().data.total === 0).toBe(true);
  });

  it('a responsible person who sees the device is told of its alarm', async () => {
    const db = s.database.db;
    const role = await makeRole(db, '000000', 'allDevices');
    await grantCodes(db, role, [mountedResource('deviceAlarm').def.permission]);
    const u = await signedInUser(s, 'seeingWatcher', [role]);
    const d = await newDevice(DEVICE_KIND.weather, {
      thresholds: '{"airTemperature":{"high":30}}',
      responsibleId: u.id,
    });
    await httpUp(d.kind, d.serial, signedMessage(d.secret, { values: { airTemperature: 39 } }));
    await s.app.telemetry.ingestor.flush();
    const [{ notes }] = rowsOf(
      await db.execute(sql`select count(*)::int as notes from flow_notice where user_id = ${u.id}`),
    );
    expect(Number(notes)).toBe(1);
    const list = await get('/deviceAlarm/page?size=100', u.token);
    expect(listedRows(list.json().data).some((r) => String(r.deviceId) === d.id)).toBe(true);
  });
});

describe('ingestion behind the devices', () => {
  it('a message the ingestion is too far behind to take is answered 503 with Retry-After, and counted', async () => {
    const d = await newDevice(DEVICE_KIND.weather);
    const ingestor = s.app.telemetry.ingestor as unknown as { backlog: number; stats: Ingestor['stats'] };
    const counted = ingestor.stats.refused.overloaded;
    const message = signedMessage(d.secret, { values: { airTemperature: 21 } });
    ingestor.backlog += 1e9; // the database far behind
    try {
      const refused = await httpUp(d.kind, d.serial, message);
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json().msg).toBe('overloaded');
    } finally {
      ingestor.backlog -= 1e9;
    }
    expect(ingestor.stats.refused.overloaded).toBe(counted + 1);
    // sent again, it is taken
    expect((await httpUp(d.kind, d.serial, message)).statusCode).toBe(200);
    await s.app.telemetry.ingestor.flush();
    expect(await readingsOf(d.id)).toBe(1);
  });
});
