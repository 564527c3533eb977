import { connect, createServer, type Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrokerStats, embeddedBroker } from './broker';
import type { DeviceDirectory } from './directory';

/**
 * One address holds at most `maxPerAddress` connections open on the embedded broker: a host opening
 * sockets that never authenticate cannot hold the server's sockets; one closed makes room for another.
 */
describe('the embedded broker, connections per address', () => {
  let stats: BrokerStats;
  let port = 0;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const log = { warn() {}, error() {} } as unknown as FastifyBaseLogger;
    const broker = await embeddedBroker({
      // no client here gets as far as CONNECT: the directory is never asked
      directory: {} as DeviceDirectory,
      limits: { maxPacketBytes: 1024, ratePerDevice: 20, rateTotal: 100, maxPerAddress: 3 },
      take: () => {},
      log,
    });
    stats = broker.stats;
    const server = createServer(broker.handle);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    port = (server.address() as { port: number }).port;
    close = () =>
      new Promise<void>((ok) => {
        broker.aedes.close(() => server.close(() => ok()));
      });
  });
  afterAll(() => close?.());

  /** a socket to the broker, and whether the broker closed it within 300 ms */
  const open = async (): Promise<{ socket: Socket; closedByBroker: boolean }> => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((ok) => socket.once('connect', ok));
    const closedByBroker = await new Promise<boolean>((ok) => {
      const timer = setTimeout(() => ok(false), 300);
      socket.once('close', () => {
        clearTimeout(timer);
        ok(true);
      });
    });
    return { socket, closedByBroker };
  };

  it('the fourth connection from one address is closed on arrival; a freed place is taken again', async () => {
    const first = await Promise.all([open(), open(), open()]);
    expect(first.map((c) => c.closedByBroker)).toEqual([false, false, false]);
    const fourth = await open();
    expect(fourth.closedByBroker).toBe(true);
    expect(stats.tooManyFromAddress).toBe(1);
    // one closes: its place is free again
    first[0].socket.destroy();
    await new Promise((ok) => setTimeout(ok, 50));
    const again = await open();
    expect(again.closedByBroker).toBe(false);
    for (const c of [...first, again]) c.socket.destroy();
  });
});
