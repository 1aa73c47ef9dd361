// The gain of each fenced internal (docs/internals.md), each against the public way of doing the same
// thing, measured in the same run: with and without, alternated (the order flips every round), several
// rounds, medians. From apps/server:
//   TEST_DATABASE_URL=postgres://… pnpm exec tsx bench/internals/run.ts [prepared|secp256k1|stream|pin-walker]
// (`prepared` needs a PostgreSQL server and is skipped without one). Figures are printed and written to
// bench/results/internals.json with the machine and the commit.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { recoverVoteSigner, VOTE_DOMAIN, VOTE_TYPES, voteDigest } from '@plenum/core/governance/vote-signer';
import { executePrepared } from '@plenum/core/shared/prepared';
import { pooledLeaves } from '@plenum/core/storage/leaf-pool';
import { leafSkippingWalker } from '@plenum/core/storage/pin-walker';
import { createDb, type DbOrTx } from '@plenum/db';
import { type SQL, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { type Hex, hexToBytes, keccak256, recoverTypedDataAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { coreDependencyVersion, importFromCore } from './from-core';

const ROUNDS = Number(process.env.BENCH_INTERNALS_ROUNDS ?? 5);
const only = process.argv.slice(2);
const wanted = (name: string) => !only.length || only.includes(name);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
/** appends a round's figure to a variant's list */
const add = (rounds: Record<string, number[]>, key: string, value: number) => {
  rounds[key] = [...(rounds[key] ?? []), value];
};
/** the variants of one round, in an order that flips every round */
const inOrder = <T>(round: number, xs: T[]) => (round % 2 ? [...xs].reverse() : xs);

interface Result {
  internal: string;
  measure: string;
  unit: string;
  /** lower is better (a cost) or higher is better (a rate) */
  better: 'lower' | 'higher';
  /** median per variant; the first is the internal, `baseline` the public way */
  medians: Record<string, number>;
  rounds: Record<string, number[]>;
  with: string;
  baseline: string;
  /** improvement of `with` over `baseline`, in % (positive: the internal is better) */
  gainPercent: number;
  versions: Record<string, string>;
}
const results: Result[] = [];

function report(r: Omit<Result, 'medians' | 'gainPercent'>) {
  const medians = Object.fromEntries(Object.entries(r.rounds).map(([k, xs]) => [k, median(xs)]));
  const w = medians[r.with]!;
  const b = medians[r.baseline]!;
  const gainPercent = r.better === 'lower' ? ((b - w) / b) * 100 : ((w - b) / b) * 100;
  results.push({ ...r, medians, gainPercent });
  console.log(`\n${r.internal}: ${r.measure} (${r.unit}, ${r.better} is better), median of ${ROUNDS} rounds`);
  for (const [k, xs] of Object.entries(r.rounds))
    console.log(
      `  ${k.padEnd(44)} ${medians[k]!.toFixed(2).padStart(10)}   [${xs.map((x) => x.toFixed(1)).join(' ')}]`,
    );
  console.log(`  gain of "${r.with}" over "${r.baseline}": ${gainPercent.toFixed(1)} %`);
}

/** Drizzle's session.prepareQuery (a named statement) against the public db.execute, on PostgreSQL */
async function benchPrepared() {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) {
    console.log('\nprepared: skipped (TEST_DATABASE_URL is not set)');
    return;
  }
  const name = `plenum_internals_${randomBytes(4).toString('hex')}`;
  const adminSql = postgres(admin, { max: 1, onnotice: () => {} });
  await adminSql.unsafe(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const handle = await createDb({ databaseUrl: url.toString(), maxConnections: 20 });
  try {
    const db = handle.db;
    await db.execute(sql`create table bench_votes (id bigserial primary key, proposal uuid not null,
      voter text not null, choice text not null, weight numeric not null, unique (proposal, voter))`);
    await db.execute(sql`create table bench_tally (proposal uuid not null, option text not null,
      shard smallint not null, votes bigint not null, weight numeric not null, primary key (proposal, option, shard))`);
    const proposal = randomUUID();
    type Exec = (db: DbOrTx, name: string, query: SQL) => Promise<unknown>;
    const variants: Record<string, Exec> = {
      'executePrepared (session.prepareQuery)': executePrepared,
      'db.execute (public, unprepared)': (d, _name, q) => d.execute(q),
    };
    const BATCH = 16;
    // the statements of a vote batch (vote-commit.ts), in one transaction: insert, per-proposal lock, tally
    const voteBatch = (exec: Exec, tag: string) =>
      db.transaction(async (tx) => {
        const voters = Array.from({ length: BATCH }, (_, i) => `${tag}-${i}`);
        const choices = voters.map((_, i) => (i % 3 ? 'For' : 'Against'));
        await exec(
          tx,
          'internals_insert',
          sql`insert into bench_votes (proposal, voter, choice, weight)
            select ${proposal}::uuid, v.voter, v.choice, v.weight::numeric
            from unnest(${sql.param(voters)}::text[], ${sql.param(choices)}::text[], ${sql.param(voters.map(() => '1'))}::text[])
              as v(voter, choice, weight)
            on conflict (proposal, voter) do nothing returning id, voter`,
        );
        await exec(tx, 'internals_lock', sql`select pg_advisory_xact_lock(727099, hashtext(${proposal}))`);
        await exec(
          tx,
          'internals_tally',
          sql`with up as (
              insert into bench_tally (proposal, option, shard, votes, weight)
              select ${proposal}::uuid, o.option, ${Math.floor(Math.random() * 16)}::smallint, o.votes::bigint, o.votes::numeric
              from unnest(${sql.param(['Against', 'For'])}::text[], ${sql.param(['6', '10'])}::text[]) as o(option, votes)
              on conflict (proposal, option, shard) do update
                set votes = bench_tally.votes + excluded.votes, weight = bench_tally.weight + excluded.weight
              returning 1)
            select option, sum(votes)::text as votes from bench_tally where proposal = ${proposal} group by option`,
        );
      });
    const read = (exec: Exec) =>
      exec(
        db,
        'internals_read',
        sql`select option, sum(votes)::text as votes, sum(weight)::text as weight
          from bench_tally where proposal = ${proposal} group by option`,
      );
    /** `n` calls of `f`, `lanes` at a time; calls per second */
    const rate = async (n: number, lanes: number, f: (i: number) => Promise<unknown>) => {
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: lanes }, async () => {
          while (next < n) await f(next++);
        }),
      );
      return (n / (performance.now() - t0)) * 1000;
    };
    for (const [k, exec] of Object.entries(variants)) {
      await rate(200, 40, (i) => voteBatch(exec, `warm-${k}-${i}`));
      await rate(1_000, 64, () => read(exec));
    }
    const batches: Record<string, number[]> = {};
    const reads: Record<string, number[]> = {};
    for (let r = 0; r < ROUNDS; r++) {
      for (const [k, exec] of inOrder(r, Object.entries(variants))) {
        add(batches, k, await rate(2_000, 40, (i) => voteBatch(exec, `${r}-${k}-${i}`)));
        add(reads, k, await rate(10_000, 64, () => read(exec)));
      }
    }
    const keys = Object.keys(variants);
    const versions = {
      'drizzle-orm': coreDependencyVersion('drizzle-orm'),
      postgres: '3.4.9 (patched)',
      PostgreSQL: String((await adminSql`show server_version`)[0]?.server_version),
    };
    const base = { internal: 'prepared', unit: 'per s', better: 'higher' as const, versions };
    report({
      ...base,
      measure: `vote-batch transactions (3 statements, ${BATCH} votes), 40 lanes, pool 20`,
      rounds: batches,
      with: keys[0]!,
      baseline: keys[1]!,
    });
    report({
      ...base,
      measure: 'results reads (one statement, no transaction), 64 lanes, pool 20',
      rounds: reads,
      with: keys[0]!,
      baseline: keys[1]!,
    });
  } finally {
    await handle.close();
    await adminSql.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await adminSql.end();
  }
}

/** the vote signer's recovery: through `secp256k1/bindings`, the package's public entry, elliptic, viem */
async function benchSecp256k1() {
  type Lib = {
    ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
  };
  const bindings = (await importFromCore('secp256k1', 'bindings.js')).default as Lib;
  const publicEntry = (await importFromCore('secp256k1')).default as Lib;
  const elliptic = (await importFromCore('secp256k1', 'elliptic.js')).default as Lib;
  const keccak = (b: Uint8Array) => keccak256(b, 'bytes');
  const N = 300;
  const signed = await Promise.all(
    Array.from({ length: N }, async (_, i) => {
      const key = privateKeyToAccount(generatePrivateKey());
      const message = {
        daoId: randomUUID(),
        proposalId: randomUUID(),
        choice: i % 2 ? 'For' : 'Against',
        comment: '',
        timestamp: 1_700_000_000 + i,
      };
      const signature = await key.signTypedData({
        domain: VOTE_DOMAIN,
        types: VOTE_TYPES,
        primaryType: 'Vote',
        message: { ...message, timestamp: BigInt(message.timestamp) },
      });
      return { message, signature, address: key.address.toLowerCase() };
    }),
  );
  // the fast path of vote-signer.ts with a given library object (same digest, same checks)
  const withLib = (lib: Lib) => async (m: (typeof signed)[number]['message'], signature: string) => {
    const sig = hexToBytes(signature as Hex);
    const v = sig[64]!;
    const pub = lib.ecdsaRecover(sig.subarray(0, 64), v - 27, voteDigest(m), false);
    return `0x${Buffer.from(keccak(pub.subarray(1)).subarray(12)).toString('hex')}`;
  };
  const variants: Record<string, (m: (typeof signed)[number]['message'], s: string) => Promise<string>> = {
    'recoverVoteSigner (as shipped)': recoverVoteSigner,
    'private path: secp256k1/bindings': withLib(bindings),
    'public entry: require("secp256k1")': withLib(publicEntry),
    'elliptic (the public entry without a native build)': withLib(elliptic),
    'viem recoverTypedDataAddress': async (m, s) =>
      (
        await recoverTypedDataAddress({
          domain: VOTE_DOMAIN,
          types: VOTE_TYPES,
          primaryType: 'Vote',
          message: { ...m, timestamp: BigInt(m.timestamp) },
          signature: s as Hex,
        })
      ).toLowerCase(),
  };
  const rounds: Record<string, number[]> = {};
  for (let r = -1; r < ROUNDS; r++) {
    for (const [k, f] of inOrder(Math.max(r, 0), Object.entries(variants))) {
      const t0 = performance.now();
      for (const s of signed)
        if ((await f(s.message, s.signature)) !== s.address) throw new Error(`${k}: wrong signer`);
      const usPerOp = ((performance.now() - t0) / N) * 1000;
      if (r >= 0) add(rounds, k, usPerOp); // round -1 warms up
    }
  }
  const base = {
    internal: 'secp256k1',
    unit: 'µs per recovery',
    better: 'lower' as const,
    rounds,
    versions: { secp256k1: coreDependencyVersion('secp256k1'), viem: coreDependencyVersion('viem') },
  };
  report({
    ...base,
    measure: 'the private path against the public entry of the same package',
    with: 'private path: secp256k1/bindings',
    baseline: 'public entry: require("secp256k1")',
  });
  report({
    ...base,
    internal: 'secp256k1 (native recovery at all)',
    measure: 'the vote signer as shipped against viem',
    with: 'recoverVoteSigner (as shipped)',
    baseline: 'viem recoverTypedDataAddress',
  });
}

/** leaf-pool.ts and reclaim.ts: a 100 MB streamed add in a fresh process per run, with and without each */
async function benchStream() {
  const child = path.join(import.meta.dirname, 'stream-child.ts');
  const run = (pool: boolean, reclaim: boolean) =>
    new Promise<{ cid: string; ms: number; cpuMs: number; rssGrowthMb: number }>((resolve, reject) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'plenum-internals-'));
      const p = spawn(
        process.execPath,
        ['--import', 'tsx', child, dir, pool ? '1' : '0', reclaim ? '1' : '0'],
        {
          cwd: path.join(import.meta.dirname, '..', '..'),
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let out = '';
      p.stdout.on('data', (d) => {
        out += d;
      });
      p.on('error', reject);
      p.on('close', (code) => {
        rmSync(dir, { recursive: true, force: true });
        if (code !== 0) reject(new Error(`stream child exited with ${code}`));
        else resolve(JSON.parse(out.trim().split('\n').pop()!));
      });
    });
  const variants: Record<string, [boolean, boolean]> = {
    'pooled leaves + reclaim (as shipped)': [true, true],
    'without reclaim': [true, false],
    'without pooled leaves': [false, true],
    'neither (stock importer, no gc)': [false, false],
  };
  const rss: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  const wall: Record<string, number[]> = {};
  const cids = new Set<string>();
  for (let r = 0; r < ROUNDS; r++) {
    for (const [k, [pool, reclaim]] of inOrder(r, Object.entries(variants))) {
      const x = await run(pool, reclaim);
      cids.add(x.cid);
      add(rss, k, x.rssGrowthMb);
      add(cpu, k, x.cpuMs);
      add(wall, k, x.ms);
    }
  }
  if (cids.size !== 1) throw new Error(`the variants built different DAGs: ${[...cids].join(', ')}`);
  const versions = {
    helia: coreDependencyVersion('helia'),
    '@helia/unixfs': coreDependencyVersion('@helia/unixfs'),
    node: process.version,
  };
  const shipped = 'pooled leaves + reclaim (as shipped)';
  for (const [internal, baseline] of [
    ['reclaim', 'without reclaim'],
    ['leaf-pool', 'without pooled leaves'],
  ] as const) {
    const base = { internal, better: 'lower' as const, with: shipped, baseline, versions };
    report({ ...base, measure: 'RSS growth during a 100 MB streamed add', unit: 'MB', rounds: rss });
    report({ ...base, measure: 'CPU time of the add', unit: 'ms', rounds: cpu });
    report({ ...base, measure: 'wall time of the add', unit: 'ms', rounds: wall });
  }
}

/** pin-walker.ts against Helia's default walker: pinning a 100 MB DAG that is on disk */
async function benchPinWalker() {
  const { createHeliaLight } = await importFromCore('helia');
  const { unixfs } = await importFromCore('@helia/unixfs');
  const { FsBlockstore } = await importFromCore('blockstore-fs');
  const { FsDatastore } = await importFromCore('datastore-fs');
  const dir = mkdtempSync(path.join(tmpdir(), 'plenum-internals-pin-'));
  const helia = createHeliaLight({
    blockstore: new FsBlockstore(path.join(dir, 'blocks')),
    datastore: new FsDatastore(path.join(dir, 'datastore')),
    blockBrokers: [],
  });
  await helia.start();
  try {
    async function* content() {
      for (let i = 0; i < 100; i++) yield randomBytes(1024 * 1024);
    }
    const cid = await unixfs(helia).addByteStream(content(), pooledLeaves());
    const variants: Record<string, object> = {
      'leafSkippingWalker (pin-walker.ts)': { walker: leafSkippingWalker },
      "Helia's default walker": {},
    };
    const rounds: Record<string, number[]> = {};
    for (let r = -1; r < ROUNDS; r++) {
      for (const [k, options] of inOrder(Math.max(r, 0), Object.entries(variants))) {
        const t0 = performance.now();
        let blocks = 0;
        for await (const _ of helia.pins.add(cid, options)) blocks++;
        const ms = performance.now() - t0;
        for await (const _ of helia.pins.rm(cid, options)) {
          // drained
        }
        if (blocks < 100) throw new Error(`${k} pinned only ${blocks} blocks`);
        if (r >= 0) add(rounds, k, ms);
      }
    }
    report({
      internal: 'pin-walker',
      measure: 'pins.add of a 100 MB DAG on disk (101 blocks, page cache warm)',
      unit: 'ms',
      better: 'lower',
      rounds,
      with: 'leafSkippingWalker (pin-walker.ts)',
      baseline: "Helia's default walker",
      versions: { helia: coreDependencyVersion('helia') },
    });
  } finally {
    await helia.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const startedAt = new Date().toISOString();
if (wanted('prepared')) await benchPrepared();
if (wanted('secp256k1')) await benchSecp256k1();
if (wanted('stream')) await benchStream();
if (wanted('pin-walker')) await benchPinWalker();

const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
})();
const out = path.join(import.meta.dirname, '..', 'results');
mkdirSync(out, { recursive: true });
writeFileSync(
  path.join(out, 'internals.json'),
  `${JSON.stringify(
    {
      commit,
      startedAt,
      finishedAt: new Date().toISOString(),
      rounds: ROUNDS,
      machine: {
        cores: availableParallelism(),
        cpu: cpus()[0]?.model ?? null,
        loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
        node: process.version,
      },
      results,
    },
    null,
    2,
  )}\n`,
);
console.log(`\nfigures written to ${path.relative(process.cwd(), path.join(out, 'internals.json'))}`);
process.exit(0);
