// Canaries of the patched dependency (docs/internals.md, "Patched dependencies"; the upstream
// reports are docs/upstream/): each fails naming the package and version when an upgrade or a fresh
// install leaves the patch out or changes what it fixes.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { freshDatabase, TEST_DB } from './support/app';

/** the root folder and version of an installed package (from its resolved entry point) */
function installed(name: string) {
  let dir = path.dirname(fileURLToPath(import.meta.resolve(name)));
  while (dir !== path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === name) return { dir, version: pkg.version ?? 'unknown' };
    } catch {
      // keep going up
    }
    dir = path.dirname(dir);
  }
  throw new Error(`${name} is not installed`);
}
const broken = (name: string, what: string) =>
  `${name}@${installed(name).version}: ${what} (patches/, docs/internals.md, docs/upstream/${name}.md)`;

describe('postgres.js patch (patches/postgres@3.4.9.patch)', () => {
  it('is applied to the installed version', () => {
    const { dir, version } = installed('postgres');
    expect(version, broken('postgres', 'the patch is for 3.4.9: re-check it against this version')).toBe(
      '3.4.9',
    );
    const source = readFileSync(path.join(dir, 'src', 'connection.js'), 'utf8');
    expect(source, broken('postgres', 'nextWrite has no guard for a closed socket')).toMatch(
      /function nextWrite\(fn\) \{\s*\/\/ plenum:[^\n]*\n[^\n]*\n\s*if \(!socket\)/,
    );
  });

  it.runIf(TEST_DB === 'postgres')(
    'a query on a reserved connection whose socket closed rejects with CONNECTION_CLOSED (the process lives)',
    async () => {
      const db = await freshDatabase();
      const target = new URL(db.url!);
      const sockets = new Set<net.Socket>();
      const relay = net.createServer((client) => {
        const upstream = net.connect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
      const via = new URL(target);
      via.port = String((relay.address() as net.AddressInfo).port);
      const uncaught: unknown[] = [];
      const onUncaught = (err: unknown) => uncaught.push(err);
      process.on('uncaughtException', onUncaught);
      const sql = postgres(via.toString(), { max: 1, onnotice: () => {} });
      try {
        const reserved = await sql.reserve();
        await reserved`select 1`;
        for (const s of sockets) s.end(); // the server side goes away cleanly
        await new Promise((r) => setTimeout(r, 100));
        const outcome = await reserved`select ${1}::int as one`.then(
          () => 'succeeded',
          (err: { code?: string }) => err.code,
        );
        await new Promise((r) => setImmediate(r));
        expect(uncaught, broken('postgres', 'a write after the close threw outside the query')).toEqual([]);
        expect(outcome, broken('postgres', 'the query was not settled with CONNECTION_CLOSED')).toBe(
          'CONNECTION_CLOSED',
        );
        reserved.release();
      } finally {
        process.off('uncaughtException', onUncaught);
        await sql.end({ timeout: 1 });
        relay.close();
        for (const s of sockets) s.destroy();
        await db.drop();
      }
    },
  );
});

describe('postgres.js patch: the array-type fetch of a new connection', () => {
  it.runIf(TEST_DB === 'postgres')(
    'a connection that drops while it fetches the array types rejects the query, with no unhandled rejection',
    async () => {
      const db = await freshDatabase();
      const target = new URL(db.url!);
      const sockets = new Set<net.Socket>();
      // forwards until the client asks for the array types, then the database is gone (refused from then on)
      const relay = net.createServer((client) => {
        const upstream = net.connect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => {});
        }
        upstream.pipe(client);
        client.on('data', (chunk: Buffer) => {
          if (chunk.includes('pg_catalog.pg_type')) {
            relay.close();
            for (const s of sockets) s.destroy();
          } else upstream.write(chunk);
        });
      });
      await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
      const via = new URL(target);
      via.port = String((relay.address() as net.AddressInfo).port);
      const unhandled: unknown[] = [];
      const onUnhandled = (err: unknown) => unhandled.push(err);
      process.on('unhandledRejection', onUnhandled);
      const sql = postgres(via.toString(), { max: 1, onnotice: () => {}, connect_timeout: 2 });
      try {
        const outcome = await sql`select 1 as one`.then(
          () => 'succeeded',
          (err: { code?: string }) => err.code ?? 'rejected',
        );
        expect(outcome).not.toBe('succeeded');
        // an unhandled rejection is reported after the microtasks of the turn that made it
        for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
        expect(
          unhandled,
          broken('postgres', 'the failed array-type fetch became an unhandled rejection'),
        ).toEqual([]);
      } finally {
        process.off('unhandledRejection', onUnhandled);
        await sql.end({ timeout: 1 });
        relay.close();
        for (const s of sockets) s.destroy();
        await db.drop();
      }
    },
  );
});
