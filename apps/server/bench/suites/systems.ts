import { cpus, loadavg } from 'node:os';
import { scoreBallots, storedBallot } from '@plenum/core';
import postgres from 'postgres';
import { startTestApp } from '../../test/support/app';
import { memberUser } from '../../test/support/factories';
import { createDao, createProposal } from '../../test/support/governance';
import { apiClient } from '../../test/support/http';
import { type LoadRequest, percentile, runLoad } from '../lib/http-load';
import { seedSessionVoters } from '../lib/session-voters';
import type { BenchContext } from '../run';

/**
 * Voting systems (docs/governance.md, "Voting systems"; docs/operations.md, "Benchmarks"): session-vote
 * ingest over REST and the results read p99 for every system, single-choice being the baseline measured
 * in the same run; then the ranked-choice results read p99 with 100,000 ranked ballots counted (its
 * runoff runs over the distinct rankings, never the votes). Every proposal's results are checked against a
 * recount of its stored ballots.
 */
const PER_SYSTEM = Number(process.env.BENCH_SYSTEM_VOTES ?? 10_000);
const RANKED_BALLOTS = Number(process.env.BENCH_RANKED_BALLOTS ?? 100_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 256);
const READS = 1_000;
const OPTIONS = ['A', 'B', 'C', 'D'];
const SYSTEMS = ['single-choice', 'basic', 'approval', 'weighted', 'quadratic', 'ranked-choice'] as const;
type System = (typeof SYSTEMS)[number];

/** a varied, deterministic ballot of voter i */
function ballotOf(system: System, i: number): unknown {
  const o = (k: number) => OPTIONS[(i + k) % OPTIONS.length]!;
  switch (system) {
    case 'single-choice':
      return o(i % 3);
    case 'basic':
      return ['For', 'Against', 'Abstain'][i % 3];
    case 'approval':
      return OPTIONS.filter((_, k) => ((i * 7) >> k) & 1);
    case 'weighted':
    case 'quadratic':
      return { [o(0)]: 1 + (i % 5), [o(1)]: (i % 3) / 2 };
    case 'ranked-choice': {
      // one of the 4! orderings, cut to 1–4 preferences: every possible ranking of 4 options (64) occurs
      const rest = [...OPTIONS];
      const ranking: string[] = [];
      for (let k = rest.length, x = i % 24; k > 0; x = Math.floor(x / k), k--)
        ranking.push(rest.splice(x % k, 1)[0]!);
      return ranking.slice(0, 1 + (Math.floor(i / 24) % 4));
    }
  }
}

export default async function systemsBench(ctx: BenchContext) {
  const t = await startTestApp({
    // the load client is many voters from one address: no per-address connection cap; creating a
    // proposal of 100,000 members on a busy shared machine can pass the 5 s statement timeout
    env: {
      LOG_LEVEL: 'silent',
      DATABASE_POOL_SIZE: '20',
      HTTP_MAX_CONNECTIONS_PER_IP: '0',
      DATABASE_STATEMENT_TIMEOUT: '30s',
    },
  });
  const sql = postgres(t.databaseUrl!, { max: 10, onnotice: () => {} });
  try {
    const api = apiClient(t.url);
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50 });
    const voters = await seedSessionVoters(sql, dao.daoId, Math.max(PER_SYSTEM, RANKED_BALLOTS));

    const ingest = async (system: System, n: number) => {
      const p = await createProposal(api, owner, dao.daoId, {
        title: `${system} bench`,
        votingSystem: system,
        ...(system === 'basic' ? {} : { votingOptions: OPTIONS }),
      });
      const requests: LoadRequest[] = voters.slice(0, n).map((v, i) => ({
        method: 'POST',
        path: '/votes',
        token: v.token,
        body: JSON.stringify({
          proposalId: p.proposalId,
          daoId: dao.daoId,
          voterAddress: v.address,
          choice: ballotOf(system, i),
        }),
      }));
      const load = await runLoad(t.url, requests, CONCURRENCY);
      const reads = await runLoad(
        t.url,
        Array.from({ length: READS }, () => ({
          method: 'GET' as const,
          path: `/votes/proposal/${p.proposalId}/results`,
        })),
        1,
      );
      return { p, load, reads, exact: await exact(system, p.proposalId, load.statuses['201'] ?? 0) };
    };

    /** results = a recount of the stored ballots, and every 201 counted */
    const exact = async (system: System, proposalId: string, acknowledged: number) => {
      const rows = await sql<{ choice: string; weight: string }[]>`
        select choice, weight::text from votes where proposal_id = ${proposalId} and replaced_at is null`;
      const options = system === 'basic' ? ['For', 'Against', 'Abstain'] : OPTIONS;
      const recount = scoreBallots(
        system,
        options,
        rows.map((r) => ({ ballot: storedBallot(system, options, r.choice), weight: BigInt(r.weight) })),
      );
      const results = (await api.get(`/votes/proposal/${proposalId}/results`)).body as {
        totalVotes: number;
        options: { option: string; weight: string }[];
      };
      const fixed = (n: bigint) => `${n / 10n ** 18n}.${(n % 10n ** 18n).toString().padStart(18, '0')}`;
      const want = recount.scores.map((s) => (recount.unit === 'fixed18' ? fixed(s) : s.toString()));
      return (
        results.totalVotes === acknowledged &&
        rows.length === acknowledged &&
        results.options.every((o, i) => o.option === recount.options[i] && o.weight === want[i])
      );
    };

    const rate = (r: { statuses: Record<string, number>; elapsedMs: number }) =>
      (r.statuses['201'] ?? 0) / (r.elapsedMs / 1000);
    const figures = new Map<System, Awaited<ReturnType<typeof ingest>>>();
    for (const system of SYSTEMS) figures.set(system, await ingest(system, PER_SYSTEM));

    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (figures scale with what else runs)`,
    );
    const base = figures.get('single-choice')!;
    for (const [system, f] of figures) {
      const readP99 = percentile(f.reads.latencies, 99);
      if (system !== 'single-choice') {
        ctx.record({
          name: `${system}: session votes over REST`,
          value: rate(f.load),
          unit: 'votes/s',
          baseline: { name: 'single-choice, same run', value: rate(base.load) },
        });
      }
      ctx.record({
        name: `${system}: results read p99 after ${PER_SYSTEM} votes`,
        value: readP99,
        unit: 'ms',
        ...(system === 'single-choice'
          ? {}
          : { baseline: { name: 'single-choice, same run', value: percentile(base.reads.latencies, 99) } }),
        target: { op: '<=', value: 5 },
      });
      console.log(
        `${system.padEnd(14)} ingest ${rate(f.load).toFixed(0).padStart(5)} votes/s (${JSON.stringify(f.load.statuses)}), ` +
          `p99 ${percentile(f.load.latencies, 99).toFixed(1)} ms; results read p50 ${percentile(f.reads.latencies, 50).toFixed(2)} ms, ` +
          `p99 ${readP99.toFixed(2)} ms; results = recount: ${f.exact}`,
      );
      if (!f.exact) throw new Error(`${system}: results differ from the recount`);
    }

    // ranked-choice at 100,000 ballots: the read stays bounded by the distinct rankings
    const big = await ingest('ranked-choice', RANKED_BALLOTS);
    const distinct = await sql<{ n: number }[]>`
      select count(distinct option)::int as n from proposal_tallies where proposal_id = ${big.p.proposalId}`;
    const bigP99 = percentile(big.reads.latencies, 99);
    ctx.record({
      name: `ranked-choice: results read p99 at ${RANKED_BALLOTS} ballots`,
      value: bigP99,
      unit: 'ms',
      baseline: {
        name: `ranked-choice at ${PER_SYSTEM} ballots, same run`,
        value: percentile(figures.get('ranked-choice')!.reads.latencies, 99),
      },
      target: { op: '<=', value: 5 },
    });
    console.log(
      `ranked-choice at ${big.load.statuses['201'] ?? 0} ballots (${distinct[0]!.n} distinct rankings): ingest ${rate(big.load).toFixed(0)} votes/s; ` +
        `results read p50 ${percentile(big.reads.latencies, 50).toFixed(2)} ms, p99 ${bigP99.toFixed(2)} ms ` +
        `(target ≤ 5 ms: ${bigP99 <= 5 ? 'met' : 'NOT met'}); results = recount: ${big.exact}`,
    );
    if (!big.exact) throw new Error('ranked-choice: results differ from the recount');
  } finally {
    await sql.end();
    await t.close();
  }
}
