// Canaries of the fenced internals (docs/internals.md): each exercises exactly the private surface one
// module relies on and fails with the dependency and its version when an upgrade changes it. The Helia
// ones are storage/leaf-pool.test.ts and storage/pin-walker.test.ts.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { createDb, type DbHandle } from '@plenum/db';
import { sql } from 'drizzle-orm';
import { hexToBytes, recoverPublicKey } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverVoteSigner, VOTE_DOMAIN, VOTE_TYPES, voteDigest } from './governance/vote-signer';
import { internalBroken } from './shared/dependency-version';
import { executePrepared, rowsOf } from './shared/prepared';
import { createReclaimer, reclaimArmed } from './shared/reclaim';

const require = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------------
// shared/prepared.ts: drizzle's session.prepareQuery, on PGlite and (with TEST_DATABASE_URL) PostgreSQL

const targets: { name: 'pglite' | 'postgres' }[] = [{ name: 'pglite' }];
if (process.env.TEST_DATABASE_URL) targets.push({ name: 'postgres' });

describe.each(targets)('prepared: drizzle session.prepareQuery ($name)', ({ name }) => {
  let handle: DbHandle;
  let drop = async () => {};
  beforeAll(async () => {
    if (name === 'pglite') {
      handle = await createDb({ dataDir: 'memory://' });
      return;
    }
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const admin = await createDb({ databaseUrl: adminUrl, maxConnections: 1 });
    const database = `plenum_canary_${randomBytes(5).toString('hex')}`;
    await admin.db.execute(sql.raw(`create database ${database}`));
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    handle = await createDb({ databaseUrl: url.toString(), maxConnections: 2 });
    drop = async () => {
      await admin.db.execute(sql.raw(`drop database if exists ${database} with (force)`)).catch(() => {});
      await admin.close();
    };
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    await drop();
  });

  const broken = (what: string) => internalBroken('drizzle-orm', what);
  const query = (a: number, s: string) =>
    sql`select ${a}::int + 1 as n, ${s}::text as s, x from unnest(${sql.param([3, 1, 2])}::int[]) as x order by x`;
  const expected = (a: number, s: string) => [1, 2, 3].map((x) => ({ n: a + 1, s, x }));

  it('the private surface is there', () => {
    const db = handle.db as unknown as {
      session?: { prepareQuery?: unknown };
      dialect?: { sqlToQuery?: unknown };
    };
    expect(typeof db.session?.prepareQuery, broken('db.session.prepareQuery is gone')).toBe('function');
    expect(typeof db.dialect?.sqlToQuery, broken('db.dialect.sqlToQuery is gone')).toBe('function');
  });

  it('a named prepared query returns the right rows, reused with other parameters, in and out of a transaction', async () => {
    for (const [a, s] of [
      [1, 'first'],
      [41, 'second'],
    ] as const) {
      const rows = rowsOf(await executePrepared(handle.db, 'canary_prepared', query(a, s)));
      expect(rows, broken('a prepared query returned wrong rows')).toEqual(expected(a, s));
    }
    await handle.db.transaction(async (tx) => {
      const rows = rowsOf(await executePrepared(tx, 'canary_prepared', query(7, 'tx')));
      expect(rows, broken('a prepared query in a transaction returned wrong rows')).toEqual(
        expected(7, 'tx'),
      );
    });
  });

  it.runIf(name === 'postgres')(
    'on PostgreSQL the statement is really prepared (the fast path is taken)',
    async () => {
      await handle.db.transaction(async (tx) => {
        // one connection: the statement prepared by the first query is listed for the second
        await executePrepared(
          tx,
          'canary_prepared_check',
          sql`select ${1}::int as one /* plenum-prepared-canary */`,
        );
        const listed = rowsOf<{ n: number }>(
          await tx.execute(
            sql`select count(*)::int as n from pg_prepared_statements where not from_sql and statement like ${'%plenum-prepared-canary%'}`,
          ),
        );
        expect(
          listed[0]?.n,
          broken('executePrepared did not create a prepared statement on PostgreSQL'),
        ).toBe(1);
      });
    },
  );
});

// ---------------------------------------------------------------------------------------------------
// governance/vote-signer.ts: the secp256k1 package, through its public entry (the private bindings
// path was dropped: docs/internals.md). The test alone looks behind the entry, to check the fast path.

describe('secp256k1: native recovery through the public entry', () => {
  const broken = (what: string) => internalBroken('secp256k1', what);
  type Lib = {
    ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
  };
  // a fixed key and message: a known signature (RFC 6979 signatures are deterministic)
  const key = privateKeyToAccount(`0x${'4d'.repeat(32)}`);
  const message = {
    daoId: 'dao',
    proposalId: 'proposal',
    choice: 'For',
    comment: 'canary',
    timestamp: 1_700_000_000,
  };
  const signature = () =>
    key.signTypedData({
      domain: VOTE_DOMAIN,
      types: VOTE_TYPES,
      primaryType: 'Vote',
      message: { ...message, timestamp: BigInt(message.timestamp) },
    });

  it('the public entry is the native build on Linux x64 (not the pure-JS fallback)', () => {
    if (process.platform !== 'linux' || process.arch !== 'x64') return;
    expect(
      require('secp256k1'),
      broken('the public entry fell back to its pure-JS build (~15x slower)'),
    ).toBe(require('secp256k1/bindings'));
  });

  it('recovers the same public key as viem for a known signature (native and pure-JS builds)', async () => {
    const sig = await signature();
    const bytes = hexToBytes(sig);
    const digest = voteDigest(message);
    const viemPub = await recoverPublicKey({ hash: digest, signature: sig });
    for (const [name, lib] of [
      ['public entry', require('secp256k1') as Lib],
      ['pure-JS build', require('secp256k1/elliptic') as Lib],
    ] as const) {
      const pub = lib.ecdsaRecover(bytes.subarray(0, 64), bytes[64]! - 27, digest, false);
      expect(Buffer.from(pub).toString('hex'), broken(`ecdsaRecover (${name}) disagrees with viem`)).toBe(
        viemPub.slice(2),
      );
    }
    expect(await recoverVoteSigner(message, sig)).toBe(key.address.toLowerCase());
  });
});

// ---------------------------------------------------------------------------------------------------
// shared/reclaim.ts: V8's gc extension

describe('reclaim: V8 gc extension', () => {
  const broken = (what: string) =>
    `node ${process.version} (V8 ${process.versions.v8}): ${what} (docs/internals.md)`;

  it('is armed here and a call runs a young-generation collection', async () => {
    expect(reclaimArmed(), broken("V8's gc extension is not reachable: reclaim does nothing")).toBe(true);
    let minor = 0;
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if ((e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR)
          minor++;
    });
    observer.observe({ entryTypes: ['gc'] });
    const reclaim = createReclaimer(1024);
    reclaim(1023); // under the threshold: nothing yet
    for (let i = 0; i < 20; i++) reclaim(1024);
    await new Promise((r) => setTimeout(r, 200));
    observer.disconnect();
    // 20 asked for; a quiet test process does not scavenge 20 times on its own in 200 ms
    expect(minor, broken("gc({ type: 'minor' }) did not run scavenges")).toBeGreaterThanOrEqual(20);
  });
});
