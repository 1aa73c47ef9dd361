import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { StorageRuntime } from '@plenum/core';
import { publishRecord, recordAttestor } from '@plenum/core/governance/record/index';
import { verifyRecord } from '@plenum/verify';
import postgres from 'postgres';
import { startTestApp } from '../../test/support/app';
import { memberUser } from '../../test/support/factories';
import { createDao, createProposal } from '../../test/support/governance';
import { apiClient } from '../../test/support/http';
import type { BenchContext } from '../run';

/**
 * The proposal record at 100,000 ballots (docs/governance.md, "Publishing"; docs/operations.md,
 * "Benchmarks"). One server (in this process, on PostgreSQL, its record publisher stopped so that each
 * step runs alone), a 10,000-ballot proposal first as the baseline of the same run, then a 100,000-ballot
 * one, each with as many electorate entries, its rows written in bulk SQL as the app would have left them
 * (electorate, session ballots, tallies equal to their recount), then:
 *
 * - closed by one pass of the server's status scheduler (`advanceProposal`, which builds the whole record
 *   in the closing transaction to fix its CID);
 * - downloaded once over HTTP (`GET /proposals/{id}/record.car`, to a file), then checked with
 *   packages/verify (not timed);
 * - published: `publishRecord` into the embedded IPFS node (blockstore-fs), as the server's publisher
 *   calls it. Every block is a file and the pin walks and records every block, some 3 ms a block here, so
 *   a 100,000-ballot record (about 200,000 blocks) takes minutes: by default a smaller proposal
 *   (`BENCH_RECORD_PUBLISH`, 1,000 ballots) is published and the figure is per block; set it to 100000
 *   for the full one.
 *
 * Memory: the server shares this process, so the client keeps nothing big (the CAR goes to a file). RSS
 * growth: the highest RSS sampled every 10 ms during a step, less the RSS when it began. Live heap: in a
 * second pass on a twin proposal of the same size (closed and downloaded again), every 250 ms a full
 * collection is forced (`gc`, exposed at run time) and the heap still in use read; the figure is the
 * highest of those less the live heap before the step. Unlike the RSS, the live heap does not count
 * garbage not yet collected or memory the allocator keeps, so it says what a step holds. The forced
 * collections slow a step several times over on a busy machine, hence the separate, untimed pass;
 * publishing, a longer step, is measured once with a collection every 2 s.
 * Bounded memory means the 100,000-ballot figures are close to the 10,000-ballot ones.
 * `BENCH_RECORD_BALLOTS` and `BENCH_RECORD_BASELINE` change the sizes.
 */
const BIG = Number(process.env.BENCH_RECORD_BALLOTS ?? 100_000);
const BASE = Number(process.env.BENCH_RECORD_BASELINE ?? 10_000);
const PUBLISH = Number(process.env.BENCH_RECORD_PUBLISH ?? 1_000);
/** how often a memory pass reads the live heap (a forced full collection each time) */
const LIVE_EVERY_MS = 250;
const MB = 1024 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const liveHeap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

interface Step {
  ms: number;
  rssGrowthMb: number;
  liveGrowthMb: number;
}

/**
 * runs `work` as one measured step: its wall time and RSS growth, or with `live` (the memory pass) its
 * live heap growth, whose forced collections would slow the timed pass several times over
 */
async function step<T>(
  work: () => Promise<T>,
  live = false,
  liveEveryMs = LIVE_EVERY_MS,
): Promise<Step & { result: T }> {
  const live0 = liveHeap();
  const rss0 = process.memoryUsage.rss();
  let rssPeak = rss0;
  let livePeak = live0;
  const rssSampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  }, 10);
  const liveSampler = live
    ? setInterval(() => {
        livePeak = Math.max(livePeak, liveHeap());
      }, liveEveryMs)
    : undefined;
  const started = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - started;
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    return { result, ms, rssGrowthMb: (rssPeak - rss0) / MB, liveGrowthMb: (livePeak - live0) / MB };
  } finally {
    clearInterval(rssSampler);
    clearInterval(liveSampler);
  }
}

interface Run {
  n: number;
  recordCid: string;
  close: Step;
  download: Step & { bytes: number };
  verify: { ms: number; ok: boolean; blocks: number; failures: unknown[] };
}

export default async function recordBench(ctx: BenchContext) {
  const t = await startTestApp({ env: { LOG_LEVEL: 'silent', DATABASE_STATEMENT_TIMEOUT: '60s' } });
  // the steps run one at a time, each driven here: the scheduler's pass closes, publishRecord publishes
  await t.app.recordPublisher.stop();
  await t.app.scheduler.stop();
  const sql = postgres(t.databaseUrl!, { max: 2, onnotice: () => {} });
  const dir = mkdtempSync(path.join(tmpdir(), 'plenum-bench-record-'));
  try {
    const api = apiClient(t.url);
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, minVotingPeriod: 0, tokenWeighted: false });
    const row = async (id: string) =>
      (
        await sql<{ status: string; recordCid: string | null }[]>`
          select status, record_cid as "recordCid" from proposals where id = ${id}`
      )[0]!;

    /** an open proposal with n electorate entries and n session ballots, tallied */
    const seed = async (n: number) => {
      const p = await createProposal(api, owner, dao.daoId, { title: `record bench, ${n} ballots` });
      const id = p.proposalId;
      await t.app.scheduler.tick();
      if ((await row(id)).status !== 'ACTIVE') throw new Error('the proposal did not open');
      // the electorate (the owner, frozen at the start, and n voters) and one session ballot each, timed
      // after the start, with tallies equal to their recount (docs/governance.md, "Counting")
      const seeded = performance.now();
      await sql.begin(async (tx) => {
        await tx`insert into proposal_electorate (proposal_id, address, weight)
          select ${id}, '0x9' || lpad(k::text, 39, '0'), 1 from generate_series(1, ${n}::int) k`;
        await tx`insert into votes (proposal_id, dao_id, voter_address, choice, weight, order_key, created_at, updated_at)
          select p.id, p.dao_id, '0x9' || lpad(k::text, 39, '0'),
            case when k % 5 = 0 then 'Abstain' when k % 2 = 0 then 'For' else 'Against' end, 1,
            extract(epoch from c)::bigint, c, c
          from proposals p, generate_series(1, ${n}::int) k,
            lateral (select p.start_time + k * interval '10 microseconds' as c) t
          where p.id = ${id}`;
        await tx`insert into proposal_tallies (proposal_id, option, shard, votes, weight, updated_at)
          select proposal_id, choice, abs(hashtext(voter_address)) % 8, count(*), sum(weight), max(created_at)
          from votes where proposal_id = ${id} group by 1, 2, 3
          on conflict (proposal_id, option, shard) do update
          set votes = proposal_tallies.votes + excluded.votes, weight = proposal_tallies.weight + excluded.weight`;
        await tx`update proposals set eligible_voters = eligible_voters + ${n}, eligible_weight = eligible_weight + ${n},
            end_time = greatest(now(), start_time + ${n + 1} * interval '10 microseconds')
          where id = ${id}`;
      });
      await sql`vacuum analyze votes`;
      await sql`vacuum analyze proposal_electorate`;
      console.log(
        `  ${n.toLocaleString('en')} ballots and electorate entries seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
      );
      return id;
    };

    /** the close: one pass of the server's own scheduler; the proposal is due */
    const close = async (id: string, live = false) => {
      const closed = await step(() => t.app.scheduler.tick(), live);
      const r = await row(id);
      if (closed.result !== 1 || r.status === 'ACTIVE' || !r.recordCid)
        throw new Error('the close did not happen');
      return { ...closed, recordCid: r.recordCid };
    };

    const download = (id: string, file: string, live = false) =>
      step(async () => {
        const res = await fetch(`${t.url}/proposals/${id}/record.car`);
        if (res.status !== 200 || !res.body) throw new Error(`record.car: ${res.status}`);
        await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file));
      }, live);

    const run = async (n: number): Promise<Run> => {
      // the timed pass
      const id = await seed(n);
      const closed = await close(id);
      const record = await api.get(`/proposals/${id}/record`);
      if (record.status !== 200 || record.body.recordCid !== closed.recordCid)
        throw new Error(`GET /proposals/{id}/record: ${record.status} ${JSON.stringify(record.body)}`);
      const file = path.join(dir, `${n}.car`);
      const downloaded = await download(id, file);
      const car = new Uint8Array(readFileSync(file));
      rmSync(file);
      const verifyStarted = performance.now();
      const verdict = await verifyRecord(car, {
        key: new Uint8Array(Buffer.from(record.body.publicKey as string, 'hex')),
        expectedRoot: closed.recordCid,
      });
      const verifyMs = performance.now() - verifyStarted;
      // the memory pass: the same on a second proposal of the same size
      const twin = await seed(n);
      const closeLive = await close(twin, true);
      const downloadLive = await download(twin, file, true);
      rmSync(file);
      return {
        n,
        recordCid: closed.recordCid,
        close: { ...closed, liveGrowthMb: closeLive.liveGrowthMb },
        download: { ...downloaded, liveGrowthMb: downloadLive.liveGrowthMb, bytes: car.byteLength },
        verify: { ms: verifyMs, ok: verdict.ok, blocks: verdict.blocks, failures: verdict.failures },
      };
    };

    const base = await run(BASE);
    const big = await run(BIG);

    // publishing, as the publisher does it: the blocks streamed as a CAR into the node, then pinned
    const pubId = await seed(PUBLISH);
    const pubClosed = await close(pubId);
    const secretKey = t.app.svc.config.secretKey();
    const node = (t.app.svc.storage as StorageRuntime).node;
    // one pass, its live heap read every 2 s: a collection there costs a few per cent of a step this long
    const published = await step(
      () => publishRecord(t.app.svc, { proposalId: pubId, node, attest: recordAttestor(secretKey) }),
      true,
      2_000,
    );
    if (published.result !== pubClosed.recordCid)
      throw new Error('the published record is not the closed one');
    const pubBlocks = (await verifyRecord(await carOf(t.url, pubId), {})).blocks;

    console.log(
      `  machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const mem = (x: Step) =>
      `RSS +${x.rssGrowthMb.toFixed(1)} MB, live heap +${x.liveGrowthMb.toFixed(1)} MB`;
    for (const r of [base, big]) {
      console.log(
        `  ${r.n.toLocaleString('en')} ballots: close ${r.close.ms.toFixed(0)} ms (${mem(r.close)}); ` +
          `download ${(r.download.bytes / 1e6).toFixed(1)} MB in ${r.download.ms.toFixed(0)} ms (${mem(r.download)}); ` +
          `verified ${r.verify.ok ? 'ok' : 'FAILED'} (${r.verify.blocks} blocks) in ${r.verify.ms.toFixed(0)} ms`,
      );
      if (!r.verify.ok)
        throw new Error(
          `the ${r.n}-ballot record does not verify: ${JSON.stringify(r.verify.failures.slice(0, 5))}`,
        );
    }
    const perBlock = published.ms / pubBlocks;
    console.log(
      `  publishing ${PUBLISH.toLocaleString('en')} ballots (${pubBlocks} blocks) into the embedded node: ${published.ms.toFixed(0)} ms, ` +
        `${perBlock.toFixed(2)} ms a block (${mem(published)}); at that rate the ${BIG.toLocaleString('en')}-ballot record ` +
        `(${big.verify.blocks} blocks) takes ${((perBlock * big.verify.blocks) / 60_000).toFixed(1)} min`,
    );

    const baseline = (name: string, value: number) => ({
      name: `${BASE.toLocaleString('en')} ballots, same run: ${name}`,
      value,
    });
    const at = `${BIG.toLocaleString('en')} ballots`;
    ctx.record({
      name: `${at}: closing step (the whole record built in the transaction)`,
      value: big.close.ms,
      unit: 'ms',
      baseline: baseline('closing step', base.close.ms),
    });
    ctx.record({
      name: `${at}: record.car download (${(big.download.bytes / 1e6).toFixed(0)} MB)`,
      value: big.download.ms,
      unit: 'ms',
      baseline: baseline('record.car download', base.download.ms),
    });
    ctx.record({
      name: `publishing into the embedded node (${PUBLISH.toLocaleString('en')} ballots, ${pubBlocks} blocks), per block`,
      value: perBlock,
      unit: 'ms',
    });
    for (const [s, label] of [
      ['close', 'closing step'],
      ['download', 'download'],
    ] as const) {
      ctx.record({
        name: `${at}: RSS growth during the ${label}`,
        value: big[s].rssGrowthMb,
        unit: 'MB',
        baseline: baseline(`RSS growth during the ${label}`, base[s].rssGrowthMb),
      });
      // a step that held its ballots would add tens of MB at 100,000 (a leaf and a tree node are some
      // 300 bytes of blocks, more as objects): bounded means within a few MB of the baseline's
      ctx.record({
        name: `${at}: live heap growth during the ${label}, over the baseline's`,
        value: big[s].liveGrowthMb - base[s].liveGrowthMb,
        unit: 'MB',
        target: { op: '<=', value: 16 },
      });
    }
  } finally {
    await sql.end();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** the record's CAR over HTTP, whole (for counting its blocks) */
async function carOf(url: string, proposalId: string) {
  const res = await fetch(`${url}/proposals/${proposalId}/record.car`);
  return new Uint8Array(await res.arrayBuffer());
}
