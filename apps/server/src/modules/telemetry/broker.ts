import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { DeviceDirectory } from './directory';

/**
 * The embedded MQTT broker's gate (aedes). Devices authenticate at CONNECT; nothing else gets in:
 *
 * - **Who.** Username and client id are the device's identity `<tenant>/<kind>/<serial>`; the password is
 *   the device's connect password, HMAC-SHA256 of `mqtt:<identity>` with its secret (hex; `connectPassword`):
 *   the secret itself never crosses the wire. Checked against the ingestion's in-memory view of the devices
 *   (`DeviceDirectory`), so a refused client costs no database work. Anonymous clients, unknown devices,
 *   wrong passwords and a client id that is not the device's are refused (CONNACK 4/2, then closed).
 * - **One connection per device.** A second CONNECT with a connected device's id is refused; the device
 *   already connected is not kicked.
 * - **Its own topics only.** A device publishes to `<identity>/up` only (anything else ends its
 *   connection) and subscribes to `<identity>/down` only (anything else is granted 128, failure).
 * - **Limits, before any parsing.** Each connection's bytes are scanned as aedes reads them: a packet
 *   whose declared length passes `MQTT_MAX_PACKET_BYTES` ends the connection on its header, before its body
 *   is read (a 100 MB publish costs a few kilobytes), and a connection publishing faster than
 *   `MQTT_RATE_PER_DEVICE` a second (bursts of ten times that) is disconnected. All devices together are held to
 *   `MQTT_RATE_TOTAL` a second: past it publishes are dropped (counted), so ingestion never takes more
 *   than the server can check and the HTTP API keeps answering. Packets sent before CONNECT is answered
 *   wait in aedes' queue of 42 at most, and a connection that has not connected in 10 s is closed.
 * - **Connections per address.** One address holds at most `MQTT_MAX_CONNECTIONS_PER_ADDRESS` open at
 *   once; past it a new connection is closed on arrival (counted), so one host cannot hold the server's
 *   sockets open with connections that never authenticate.
 */

export interface BrokerLimits {
  maxPacketBytes: number;
  ratePerDevice: number;
  rateTotal: number;
  /** connections open at once from one address (a village's devices may share one behind its router) */
  maxPerAddress: number;
}

export interface BrokerStats {
  /** CONNECTs refused: anonymous, unknown device, wrong password, another's client id, id in use */
  refusedConnections: number;
  /** connections ended by a packet past the size limit */
  tooLarge: number;
  /** connections ended for publishing past their rate */
  tooFast: number;
  /** publishes dropped past the broker's total rate */
  dropped: number;
  /** connections closed on arrival: their address already held `maxPerAddress` open */
  tooManyFromAddress: number;
}

/** A device's identity: its MQTT username and client id, and the start of its topics. */
export const deviceIdentity = (tenantId: string, kind: string, serial: string) =>
  `${tenantId}/${kind}/${serial}`;

/** What a device sends as its MQTT password: HMAC-SHA256 of `mqtt:<identity>` with its secret, hex. */
export const connectPassword = (secret: string, identity: string) =>
  createHmac('sha256', secret).update(`mqtt:${identity}`).digest('hex');

/** A token bucket: `rate` a second, at most `burst` at once. */
export class Bucket {
  private tokens: number;
  private at = Date.now();
  constructor(
    private rate: number,
    private burst: number,
  ) {
    this.tokens = burst;
  }
  take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }
}

const PUBLISH = 3;

/**
 * Scans a connection's bytes as aedes reads them (`socket.read`), packet header by packet header: a packet
 * declared larger than the limit, or a publish past the connection's rate, ends the connection at once —
 * its body is never read, let alone buffered.
 */
function guard(socket: Socket, limits: BrokerLimits, stats: BrokerStats) {
  const rate = new Bucket(limits.ratePerDevice, Math.max(1, limits.ratePerDevice * 10));
  let state: 'type' | 'length' | 'body' = 'type';
  let type = 0;
  let length = 0;
  let factor = 1;
  let lengthBytes = 0;
  let left = 0;
  const scan = (buf: Buffer): boolean => {
    let i = 0;
    while (i < buf.length) {
      if (state === 'body') {
        const k = Math.min(left, buf.length - i);
        i += k;
        left -= k;
        if (!left) state = 'type';
        continue;
      }
      const byte = buf[i++];
      if (state === 'type') {
        type = byte >> 4;
        length = 0;
        factor = 1;
        lengthBytes = 0;
        state = 'length';
        continue;
      }
      length += (byte & 0x7f) * factor;
      factor *= 128;
      lengthBytes++;
      if (byte & 0x80) {
        if (lengthBytes >= 4) return false; // a malformed length
        continue;
      }
      if (length > limits.maxPacketBytes) {
        stats.tooLarge++;
        return false;
      }
      if (type === PUBLISH && !rate.take()) {
        stats.tooFast++;
        return false;
      }
      left = length;
      state = left ? 'body' : 'type';
    }
    return true;
  };
  const read = socket.read;
  socket.read = function guardedRead(this: Socket, n?: number) {
    const buf = read.call(this, n) as Buffer | string | null;
    if (buf && typeof buf !== 'string' && !scan(buf)) {
      this.destroy();
      return null;
    }
    return buf;
  } as Socket['read'];
}

interface AedesClient {
  id: string;
  closed: boolean;
  conn: Socket;
}

/** The embedded broker, its gate in place; `take` gets each publish a device may make. */
export async function embeddedBroker(opts: {
  directory: DeviceDirectory;
  limits: BrokerLimits;
  take: (topic: string, payload: Buffer) => void;
  log: FastifyBaseLogger;
}) {
  const { directory, limits, take, log } = opts;
  const stats: BrokerStats = {
    refusedConnections: 0,
    tooLarge: 0,
    tooFast: 0,
    dropped: 0,
    tooManyFromAddress: 0,
  };
  const { Aedes } = await import('aedes');
  const aedes = await Aedes.createBroker({ connectTimeout: 10_000 });
  /** the connected client of each identity (a second one is refused) */
  const holders = new Map<string, AedesClient>();
  /** each authenticated client's identity */
  const identities = new WeakMap<object, string>();
  let lastLogged = 0;
  type Done = (err: (Error & { returnCode: 2 | 3 | 4 | 5 }) | null, ok: boolean | null) => void;
  const refuse = (done: Done, code: 2 | 4 | 5, why: string) => {
    stats.refusedConnections++;
    const now = Date.now();
    if (now - lastLogged > 60_000) {
      lastLogged = now;
      log.warn({ why, refusedSoFar: stats.refusedConnections }, 'MQTT connection refused');
    }
    done(Object.assign(new Error(why), { returnCode: code }), false);
  };
  aedes.authenticate = (client, username, password, done) => {
    const c = client as unknown as AedesClient;
    if (!username || !password) return refuse(done, 5, 'anonymous');
    const parts = username.split('/');
    if (parts.length !== 3 || parts.some((p) => !p)) return refuse(done, 4, 'not a device identity');
    if (c.id !== username) return refuse(done, 2, 'client id is not the device identity');
    directory.find(parts[0], parts[2]).then(
      (dev) => {
        if (!dev || dev.kind !== parts[1]) return refuse(done, 4, 'unknown device');
        const expected = Buffer.from(connectPassword(dev.secret, username));
        const given = Buffer.from(password);
        if (given.length !== expected.length || !timingSafeEqual(given, expected))
          return refuse(done, 4, 'wrong password');
        const holder = holders.get(username);
        if (holder && holder !== c && !holder.closed && !holder.conn.destroyed)
          return refuse(done, 2, 'client id in use');
        holders.set(username, c);
        identities.set(client, username);
        c.conn.once('close', () => {
          if (holders.get(username) === c) holders.delete(username);
        });
        done(null, true);
      },
      (err) => done(Object.assign(err as Error, { returnCode: 3 as const }), false),
    );
  };
  // a device publishes its own readings only; anything else ends its connection
  aedes.authorizePublish = (client, packet, done) => {
    const id = client ? identities.get(client) : undefined;
    done(client && packet.topic !== `${id}/up` ? new Error('a device publishes to its own …/up only') : null);
  };
  // and hears its own downlink only (a refused subscription is granted 128, the connection kept)
  aedes.authorizeSubscribe = (client, sub, done) => {
    const id = client ? identities.get(client) : undefined;
    done(null, id && sub.topic === `${id}/down` ? sub : null);
  };
  const total = new Bucket(limits.rateTotal, limits.rateTotal * 2);
  aedes.on('publish', (packet, client) => {
    if (!client) return;
    if (!total.take()) {
      stats.dropped++;
      return;
    }
    take(packet.topic, packet.payload as Buffer);
  });
  /** the connections open from each address: past `maxPerAddress`, a new one is closed before any byte is read */
  const openFrom = new Map<string, number>();
  const handle = (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const open = openFrom.get(address) ?? 0;
    if (open >= limits.maxPerAddress) {
      stats.tooManyFromAddress++;
      socket.destroy();
      return;
    }
    openFrom.set(address, open + 1);
    socket.once('close', () => {
      const left = (openFrom.get(address) ?? 1) - 1;
      if (left > 0) openFrom.set(address, left);
      else openFrom.delete(address);
    });
    guard(socket, limits, stats);
    aedes.handle(socket);
  };
  return { aedes, handle, stats };
}
