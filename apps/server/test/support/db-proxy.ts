import net from 'node:net';

/**
 * A loopback TCP proxy in front of the test PostgreSQL server, to make the database stop answering
 * the way a stopped container or a network partition does: open connections are cut and new ones are
 * accepted but never answered (the client waits for its connect timeout).
 */
export interface DbProxy {
  url: string;
  /** connections the product opened (or tried to open) through the proxy */
  readonly connections: number;
  /** cut every open connection and leave new ones hanging */
  hang(): void;
  /**
   * stop forwarding, in both directions, without closing anything (as a SIGSTOPped server or a
   * partition that drops packets): bytes are held, new connections accepted, until `resume`
   */
  stall(): void;
  /** forward again */
  resume(): void;
  close(): Promise<void>;
}

export async function startDbProxy(databaseUrl: string): Promise<DbProxy> {
  const target = new URL(databaseUrl);
  const open = new Set<net.Socket>();
  let hanging = false;
  let stalled = false;
  /** writes held while stalled, in order */
  let held: (() => void)[] = [];
  let connections = 0;
  const forward = (from: net.Socket, to: net.Socket) =>
    from.on('data', (chunk: Buffer) => {
      if (stalled) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
  const server = net.createServer((client) => {
    connections++;
    open.add(client);
    client.on('error', () => {});
    client.on('close', () => open.delete(client));
    if (hanging) return; // accepted, never answered
    const upstream = net.connect(Number(target.port), target.hostname);
    open.add(upstream);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => {
      open.delete(upstream);
      client.destroy();
    });
    client.on('close', () => upstream.destroy());
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    get connections() {
      return connections;
    },
    hang() {
      hanging = true;
      for (const s of open) s.destroy();
    },
    stall() {
      stalled = true;
    },
    resume() {
      if (stalled) {
        stalled = false;
        const writes = held;
        held = [];
        for (const write of writes) write();
      }
      if (hanging) {
        hanging = false;
        for (const s of open) s.destroy(); // the hanging ones: the client reconnects
      }
    },
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
