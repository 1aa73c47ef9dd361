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
  /** forward again */
  resume(): void;
  close(): Promise<void>;
}

export async function startDbProxy(databaseUrl: string): Promise<DbProxy> {
  const target = new URL(databaseUrl);
  const open = new Set<net.Socket>();
  let hanging = false;
  let connections = 0;
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
    client.pipe(upstream).pipe(client);
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
    resume() {
      hanging = false;
      for (const s of open) s.destroy(); // the hanging ones: the client reconnects
    },
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
