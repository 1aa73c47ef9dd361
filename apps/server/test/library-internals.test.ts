// Canaries of the two places the server reads a library's private state without a fenced module of its own
// (docs/internals.md, "engine.io's writeBuffer" and "tRPC's router definition"): each fails naming the
// package and its version when an upgrade changes what is read.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { appRouter, listOperations } from '@plenum/api';
import { Server, type Socket } from 'socket.io';
import { io } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { buffered } from '../src/events/socket-io';

/** "<name>@<version>: <what> (docs/internals.md)", the version found from where `from` resolves */
function broken(name: string, what: string, from = import.meta.url) {
  let dir = path.dirname(fileURLToPath(import.meta.resolve(name, from)));
  while (dir !== path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === name) {
        const { version } = pkg as { version?: string };
        return `${name}@${version ?? 'unknown'}: ${what} (docs/internals.md)`;
      }
    } catch {
      // keep going up
    }
    dir = path.dirname(dir);
  }
  return `${name}: ${what} (docs/internals.md)`;
}

describe("engine.io's writeBuffer (events/socket-io.ts, a slow client's backpressure)", () => {
  it('is the array of packets not yet written, read by buffered()', async () => {
    const http = createServer();
    const server = new Server(http);
    const connected = new Promise<Socket>((resolve) => server.on('connection', resolve));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const client = io(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, {
      transports: ['websocket'],
    });
    try {
      const socket = await connected;
      const engine = broken(
        'engine.io',
        'Socket.writeBuffer is no longer an array',
        import.meta.resolve('socket.io'),
      );
      expect(Array.isArray((socket.conn as unknown as { writeBuffer?: unknown }).writeBuffer), engine).toBe(
        true,
      );
      expect(buffered(socket), engine).toBeGreaterThanOrEqual(0);
    } finally {
      client.close();
      await server.close();
    }
  });
});

describe("tRPC's router definition (packages/api policy.ts listOperations)", () => {
  it('lists every procedure with its path, type and meta from router._def', () => {
    const operations = listOperations(appRouter);
    const what = 'router._def.procedures or a procedure._def (type, meta) changed';
    const cast = operations.find((o) => o.path === 'governance.votes.cast');
    expect(cast, broken('@trpc/server', what)).toMatchObject({
      type: 'mutation',
      meta: { openapi: { method: 'POST', path: '/votes' } },
    });
    expect(operations.find((o) => o.path === 'events.stream')?.type, broken('@trpc/server', what)).toBe(
      'subscription',
    );
    expect(operations.find((o) => o.path === 'system.info')?.type, broken('@trpc/server', what)).toBe(
      'query',
    );
  });
});
