import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a shared service (PostgreSQL, Redis, Mosquitto) that the cluster tests can cut:
 * every connection through it is broken and new ones are refused until it is restored, what the servers see
 * of that service restarting — without touching the service itself, which other tests on the machine use.
 */
export class TcpCut {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  /** Listens (on a free port the first time, on the same port after a cut) and answers the port. */
  async open(): Promise<number> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  /** Breaks every connection through it and refuses new ones. */
  async cut() {
    const server = this.server;
    this.server = undefined;
    const closed = server ? new Promise((r) => server.close(r)) : Promise.resolve();
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await closed;
  }

  /** Lets connections through again, on the same port. */
  restore() {
    return this.open();
  }

  /** the URL `url` names, with this relay's port instead of the service's */
  through(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }
}
