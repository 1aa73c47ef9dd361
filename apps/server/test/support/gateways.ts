import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type NodeProvider, parseCid } from '@plenum/core';

export interface TestGateway {
  url: string;
  hits: number;
  close(): Promise<void>;
}

export type Behaviour = 'good' | 'slow' | 'evil';

/**
 * A local trustless gateway (`GET /ipfs/{cid}?format=raw`, application/vnd.ipld.raw) serving blocks
 * from an embedded node's blockstore; 'slow' answers after `delayMs`, 'evil' serves wrong bytes.
 */
export async function startGateway(
  node: NodeProvider,
  behaviour: Behaviour,
  log: string[],
  name: string,
  delayMs = 6_000,
): Promise<TestGateway> {
  const gw: TestGateway = { url: '', hits: 0, close: async () => {} };
  const server: Server = createServer(async (req, res) => {
    gw.hits++;
    log.push(name);
    const m = /^\/ipfs\/([^/?]+)/.exec(req.url ?? '');
    if (behaviour === 'slow') await new Promise((r) => setTimeout(r, delayMs));
    if (!m || !/format=raw/.test(req.url ?? '')) return void res.writeHead(400).end();
    let block: Uint8Array;
    try {
      block = await node.getBlock!(parseCid(m[1]!).cid);
    } catch {
      return void res.writeHead(404).end();
    }
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/vnd.ipld.raw' });
    res.end(behaviour === 'evil' ? Buffer.from(block).reverse() : block);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  gw.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gw.close = () => {
    server.closeAllConnections();
    return new Promise((r) => server.close(() => r()));
  };
  return gw;
}

/** a URL where nothing listens */
export async function downUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  await new Promise((r) => s.close(r));
  return url;
}
