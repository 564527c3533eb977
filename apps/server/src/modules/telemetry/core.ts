import { randomUUID } from 'node:crypto';
import { createServer, type Server as NetServer } from 'node:net';
import { DEVICE_KIND } from '@smart/contracts';
import type { FastifyInstance } from 'fastify';
import type { MqttClient } from 'mqtt';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db';
import { runPeriodically } from '../../platform/periodic';
import { raiseOfflineAlarms } from './alarms';
import { type BrokerStats, embeddedBroker } from './broker';
import { runTelemetryStorage } from './compact';
import { fillSimulatorGap } from './gap';
import { Ingestor } from './ingest';
import { ensurePartitions, monthStart } from './partitions';
import { startSimulator } from './simulator';

/**
 * The telemetry core as a server part: it takes readings from MQTT — a real broker when MQTT_URL is set
 * (every server subscribes through one shared subscription, so each message reaches one of them), else a
 * broker of its own (aedes) on MQTT_PORT — hands them to the ingestor, and runs the offline check.
 *
 * Topics: `<tenant>/<kind>/<serial>/up` (readings, from devices). The embedded broker lets in only devices
 * that authenticate at CONNECT, each publishing to its own `…/up` and subscribing to its own `…/down`
 * only, within a packet size and publish rates (broker.ts). With MQTT_URL, authentication and limits are
 * that broker's job; every message is still checked by its signature here.
 */

export const UP_TOPIC = '+/+/+/up';
const SHARED_GROUP = 'smart-telemetry';

export interface Telemetry {
  ingestor: Ingestor;
  /** the embedded broker's port (0 when none listens) */
  brokerPort: number;
  /** what the embedded broker refused and dropped (zeros without one) */
  brokerStats: BrokerStats;
  /** hands a message to ingestion as if a device had published it (the in-process simulator) */
  publish(topic: string, payload: string): Promise<void>;
  /** one offline check now (tests) */
  checkOffline(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    telemetry: Telemetry;
  }
}

/** `<tenant>/<kind>/<serial>/up` → its parts, or null */
function topicParts(topic: string): [string, string, string] | null {
  const p = topic.split('/');
  if (p.length !== 4 || p[3] !== 'up' || !p[0] || !p[1] || !p[2]) return null;
  return [p[0], p[1], p[2]];
}

export async function telemetryCore(app: FastifyInstance, db: Db, config: Config) {
  const ingestor = new Ingestor(db, app.log, config.TELEMETRY_FLUSH_MS);
  const take = (topic: string, payload: Buffer | string) => {
    const parts = topicParts(topic);
    if (!parts) {
      ingestor.stats.messages++;
      ingestor.stats.refused.malformed++;
      return Promise.resolve();
    }
    return ingestor
      .accept(parts[0], parts[1], parts[2], payload)
      .then(() => undefined)
      .catch((err) => app.log.error({ err }, 'telemetry message failed'));
  };
  const telemetry: Telemetry = {
    ingestor,
    brokerPort: 0,
    brokerStats: { refusedConnections: 0, tooLarge: 0, tooFast: 0, dropped: 0, tooManyFromAddress: 0 },
    publish: take,
    checkOffline: () => raiseOfflineAlarms(db, app.log),
  };
  app.decorate('telemetry', telemetry);

  let client: MqttClient | undefined;
  let listener: NetServer | undefined;
  let broker: { close(cb?: () => void): void } | undefined;
  let offlineTimer: NodeJS.Timeout | undefined;
  let offlineRun: Promise<unknown> | undefined;
  let stopSimulator: (() => void) | undefined;
  let storageJob: { stop(): Promise<void> } | undefined;

  app.addHook('onReady', async () => {
    const now = Date.now();
    await ensurePartitions(db, [monthStart(now), monthStart(monthStart(now) + 32 * 86_400_000)]);
    if (config.MQTT_URL) {
      const mqtt = await import('mqtt');
      client = mqtt.connect(config.MQTT_URL, {
        protocolVersion: 5,
        clientId: `smart-server-${randomUUID().slice(0, 12)}`,
        reconnectPeriod: 2000,
        connectTimeout: 10_000,
        // at most this many QoS 1 messages sent and not yet acknowledged (MQTT 5 flow control; Mosquitto
        // 2.0.11 was seen sending thousands more, which the keepalive below allows for)
        properties: { receiveMaximum: 100 },
      });
      const mqttClient = client;
      // mqtt.js reads a ping's answer only after every message the broker sent before it, and ends the
      // connection when none came in 1.5 keepalives (the broker then drops the clean session's queue). So
      // its clock starts again at each QoS 1 message taken (the acknowledgement tells the broker we are
      // here: a QoS 0 one does not, and the usual ping goes out), and while a message waits for room a ping
      // goes out every 20 s and the clock starts again (the broker hears from us; its answer may wait)
      const alive = () => mqttClient.reschedulePing(true);
      const stillHere = () => {
        mqttClient.sendPing();
        alive();
      };
      // messages are taken one at a time (mqtt.js reads the next once this one's callback has run, and
      // acknowledges a QoS 1 message then): while the ingestor is behind, none is read, the broker keeps
      // them (its queue: README "Telemetry"), and nothing is dropped for being too many
      client.handleMessage = (packet, callback) => {
        if (packet.qos > 0) alive();
        const waiting = ingestor.full ? setInterval(stillHere, 20_000) : undefined;
        ingestor
          .room()
          .then(() => take(packet.topic, packet.payload))
          .then(() => {
            clearInterval(waiting);
            callback();
          });
      };
      client.on('connect', () => client?.subscribe(`$share/${SHARED_GROUP}/${UP_TOPIC}`, { qos: 1 }));
      client.on('error', (err) => app.log.error({ err: err.message }, 'MQTT broker connection'));
    } else if (config.MQTT_PORT >= 0) {
      const embedded = await embeddedBroker({
        directory: ingestor.directory,
        limits: {
          maxPacketBytes: config.MQTT_MAX_PACKET_BYTES,
          ratePerDevice: config.MQTT_RATE_PER_DEVICE,
          rateTotal: config.MQTT_RATE_TOTAL,
          maxPerAddress: config.MQTT_MAX_CONNECTIONS_PER_ADDRESS,
        },
        take: (topic, payload) => void take(topic, payload),
        log: app.log,
      });
      telemetry.brokerStats = embedded.stats;
      broker = embedded.aedes;
      const server = createServer(embedded.handle);
      listener = server;
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(config.MQTT_PORT, config.HOST, () => resolve());
        });
        const addr = server.address();
        telemetry.brokerPort = typeof addr === 'object' && addr ? addr.port : 0;
        app.log.info({ port: telemetry.brokerPort }, 'embedded MQTT broker listening');
      } catch (err) {
        // another broker (or server) has the port: HTTP ingestion still works; say so once
        listener = undefined;
        app.log.warn(
          { err: (err as Error).message, port: config.MQTT_PORT },
          'embedded MQTT broker could not listen',
        );
      }
    }
    const tick = () => {
      if (offlineRun) return;
      offlineRun = raiseOfflineAlarms(db, app.log).finally(() => {
        offlineRun = undefined;
      });
    };
    offlineTimer = setInterval(tick, config.TELEMETRY_OFFLINE_CHECK_MS);
    offlineTimer.unref();
    // closed days into chunks, retention: every server ticks, one at a time does the work (compact.ts)
    storageJob = runPeriodically(
      'telemetry storage',
      config.TELEMETRY_COMPACT_INTERVAL_MS,
      () => runTelemetryStorage(db, app.log),
      app.log,
    );
    if (config.TELEMETRY_SIMULATOR === 'on') {
      // what the demo devices would have said while the demo was off, in the background
      void fillSimulatorGap(db, app.log).catch((err) => app.log.error({ err }, 'simulator gap'));
      stopSimulator = await startSimulator(db, telemetry.publish, app.log, async (serial, image, headers) => {
        // a lamp's photo goes through the lamp's own route (signature, content check, storage, 虫情图片)
        const res = await app.inject({
          method: 'POST',
          url: `/api/telemetry/000000/${DEVICE_KIND.pest}/${encodeURIComponent(serial)}/photo`,
          headers,
          payload: image,
        });
        if (res.statusCode !== 200) throw new Error(`photo refused: ${res.statusCode} ${res.body}`);
      });
    }
  });

  app.addHook('onClose', async () => {
    stopSimulator?.();
    clearInterval(offlineTimer);
    await offlineRun;
    await storageJob?.stop();
    await client?.endAsync().catch(() => {});
    // the broker first: it ends its clients' connections, which the listener's close waits for
    await new Promise<void>((r) => (broker ? broker.close(() => r()) : r()));
    await new Promise<void>((r) => (listener ? listener.close(() => r()) : r()));
    await ingestor.close();
  });
}
