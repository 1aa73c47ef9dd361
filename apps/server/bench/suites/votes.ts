import { cpus, loadavg } from 'node:os';
import postgres from 'postgres';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { memberUser } from '../../test/support/factories';
import { createDao, createProposal, signedVote } from '../../test/support/governance';
import { apiClient } from '../../test/support/http';
import { type LoadRequest, percentile, runLoad } from '../lib/http-load';
import { startServerProcess } from '../lib/server-process';
import { seedSessionVoters } from '../lib/session-voters';
import { startVoteBound } from '../lib/vote-bound';
import type { BenchContext } from '../run';

/**
 * The vote targets (docs/operations.md, "Benchmarks"), against this machine's bound measured in the same
 * run: acknowledged durable session votes over REST on one hot proposal ≥ 40 % of it, EIP-712 signed votes
 * ≥ 25 %, exact tallies, results read p99 ≤ 5 ms independent of the vote count. The bound: a minimal
 * node:http server (lib/vote-bound-server.mjs) that parses the same body and group-commits the same rows
 * into the same database, nothing else, driven by the same load client with the same concurrency and count.
 * Both servers run as their own Node process (Plenum compiled, dist/main.js, as production), with the same
 * pool size, and the load client on a worker thread of this one. Also printed: the naive design (one
 * transaction per vote updating one tally row) straight on the same database, without HTTP.
 */
const SESSION_VOTES = Number(process.env.BENCH_SESSION_VOTES ?? 30_000);
const SIGNED_VOTES = Number(process.env.BENCH_SIGNED_VOTES ?? 5_000);
const NAIVE_VOTES = 3_000;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 256);
const POOL_SIZE = 20;

export default async function votesBench(ctx: BenchContext) {
  const t = await startServerProcess({
    // the load client is many voters from one address: no per-address connection cap
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    HTTP_MAX_CONNECTIONS_PER_IP: '0',
    IPFS_OFFLINE: 'true',
    // creating a proposal of 35,000 members on a busy shared machine can pass the 5 s default
    DATABASE_STATEMENT_TIMEOUT: '30s',
  });
  const sql = postgres(t.databaseUrl!, { max: 20, onnotice: () => {} });
  const bound = await startVoteBound(t.databaseUrl!, POOL_SIZE);
  try {
    const api = apiClient(t.url);
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, quorum: 10 });

    // voters seeded straight into the database (registering 30,000 accounts over HTTP is not the point)
    const sessionVoters = await seedSessionVoters(sql, dao.daoId, SESSION_VOTES);
    const signers = Array.from({ length: SIGNED_VOTES }, () => privateKeyToAccount(generatePrivateKey()));
    const memberAddresses = [...sessionVoters.map((v) => v.address), ...signers.map((s) => s.address)];
    for (let i = 0; i < signers.length; i += 5_000) {
      await sql`insert into dao_members ${sql(
        signers
          .slice(i, i + 5_000)
          .map((s) => ({ dao_id: dao.daoId, address: s.address, token_balance: '0' })),
      )}`;
    }

    const hot = await createProposal(api, owner, dao.daoId, { title: 'Hot (session votes)' });
    const signedHot = await createProposal(api, owner, dao.daoId, { title: 'Hot (signed votes)' });
    const naive = await createProposal(api, owner, dao.daoId, { title: 'Naive baseline' });
    const boundHot = await createProposal(api, owner, dao.daoId, { title: 'Bound (minimal server)' });
    const boundHotAfter = await createProposal(api, owner, dao.daoId, { title: 'Bound, again' });
    const resultsPath = `/votes/proposal/${hot.proposalId}/results`;
    const reads = (n: number): LoadRequest[] =>
      Array.from({ length: n }, () => ({ method: 'GET', path: resultsPath }));

    const readsBefore = await runLoad(t.url, reads(1_000), 1);

    const choices = ['For', 'Against', 'Abstain'];
    const sessionRequests: LoadRequest[] = sessionVoters.map((v, i) => ({
      method: 'POST',
      path: '/votes',
      token: v.token,
      body: JSON.stringify({
        proposalId: hot.proposalId,
        daoId: dao.daoId,
        voterAddress: v.address,
        choice: choices[i % 5 === 0 ? 2 : i % 2]!,
      }),
    }));
    // the bound before and after Plenum's runs, each on a fresh proposal, with the same voters, bodies,
    // count and concurrency: one run of it moved by half between runs on a shared machine, so the
    // baseline is the mean of the two
    const boundRequests = (proposalId: string) =>
      sessionRequests.map((r) => ({ ...r, body: r.body!.replace(hot.proposalId, proposalId) }));
    const boundRunBefore = await runLoad(bound.url, boundRequests(boundHot.proposalId), CONCURRENCY);
    const session = await runLoad(t.url, sessionRequests, CONCURRENCY);

    const ts = Math.floor(Date.now() / 1000);
    const signedBodies = await Promise.all(
      signers.map((s, i) =>
        signedVote(s, { daoId: dao.daoId, proposalId: signedHot.proposalId, choice: choices[i % 2]! }, ts),
      ),
    );
    const signed = await runLoad(
      t.url,
      signedBodies.map((b) => ({ method: 'POST', path: '/votes', body: JSON.stringify(b) })),
      CONCURRENCY,
    );
    const boundRunAfter = await runLoad(bound.url, boundRequests(boundHotAfter.proposalId), CONCURRENCY);
    await bound.close();

    const readsAfter = await runLoad(t.url, reads(2_000), 1);

    // exactness: results = recount, and every 201 is counted
    const exact = async (proposalId: string, acknowledged: number) => {
      const results = (await api.get(`/votes/proposal/${proposalId}/results`)).body as {
        totalVotes: number;
        options: { option: string; votes: number; weight: string }[];
      };
      const recount =
        await sql`select choice, count(*)::int as n, sum(weight)::text as w from votes where proposal_id = ${proposalId} group by choice`;
      const byChoice = new Map(recount.map((r) => [r.choice as string, r]));
      const matches = results.options.every(
        (o) =>
          (byChoice.get(o.option)?.n ?? 0) === o.votes && (byChoice.get(o.option)?.w ?? '0') === o.weight,
      );
      return matches && results.totalVotes === acknowledged;
    };

    // naive baseline: one transaction per vote, one tally row, same concurrency, no HTTP at all
    const naiveVoters = memberAddresses.slice(0, NAIVE_VOTES);
    let nextNaive = 0;
    const naiveStart = performance.now();
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (nextNaive < naiveVoters.length) {
          const voter = naiveVoters[nextNaive++]!;
          await sql.begin(async (tx) => {
            await tx`insert into votes (proposal_id, dao_id, voter_address, choice, weight) values (${naive.proposalId}, ${dao.daoId}, ${voter}, 'For', 1)`;
            await tx`insert into proposal_tallies (proposal_id, option, shard, votes, weight) values (${naive.proposalId}, 'For', 0, 1, 1)
              on conflict (proposal_id, option, shard) do update set votes = proposal_tallies.votes + 1, weight = proposal_tallies.weight + 1`;
            await tx`insert into events (type, dao_id, proposal_id, data) values ('vote_cast', ${dao.daoId}, ${naive.proposalId}, ${sql.json({ voter })})`;
          });
        }
      }),
    );
    const naivePerSec = NAIVE_VOTES / ((performance.now() - naiveStart) / 1000);

    const rate = (r: { statuses: Record<string, number>; elapsedMs: number }) =>
      (r.statuses['201'] ?? 0) / (r.elapsedMs / 1000);
    const boundRates = [rate(boundRunBefore), rate(boundRunAfter)];
    const boundRate = (boundRates[0]! + boundRates[1]!) / 2;
    const boundCount = await sql`select count(*)::int as n from votes
      where proposal_id in (${boundHot.proposalId}, ${boundHotAfter.proposalId})`;
    const sessionRate = rate(session);
    const signedRate = rate(signed);
    const sessionExact = await exact(hot.proposalId, session.statuses['201'] ?? 0);
    const signedExact = await exact(signedHot.proposalId, signed.statuses['201'] ?? 0);

    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (figures scale with what else runs)`,
    );
    const boundBaseline = { name: 'bound (minimal server, same run)', value: boundRate };
    console.log(
      `vote path bound (minimal server, same run): ${boundRate.toFixed(0)} votes/s ` +
        `(mean of ${boundRates.map((r) => r.toFixed(0)).join(' before and ')} after Plenum's runs; ` +
        `${JSON.stringify(boundRunBefore.statuses)} and ${JSON.stringify(boundRunAfter.statuses)}, ${boundCount[0]!.n} rows, ` +
        `p99 ${percentile(boundRunBefore.latencies, 99).toFixed(1)} and ${percentile(boundRunAfter.latencies, 99).toFixed(1)} ms)`,
    );
    ctx.record({ name: 'vote path bound (minimal server, same run)', value: boundRate, unit: 'votes/s' });
    ctx.record({
      name: 'session votes over REST',
      value: sessionRate,
      unit: 'votes/s',
      baseline: boundBaseline,
      target: { op: '>=', value: 0.4, of: 'baseline' },
    });
    ctx.record({ name: 'session votes p99', value: percentile(session.latencies, 99), unit: 'ms' });
    ctx.record({
      name: 'EIP-712 signed votes over REST',
      value: signedRate,
      unit: 'votes/s',
      baseline: boundBaseline,
      target: { op: '>=', value: 0.25, of: 'baseline' },
    });
    ctx.record({
      name: 'results read p99 after the votes',
      value: percentile(readsAfter.latencies, 99),
      unit: 'ms',
      baseline: {
        name: 'results read p99 on an empty proposal',
        value: percentile(readsBefore.latencies, 99),
      },
      target: { op: '<=', value: 5 },
    });
    // exactness as a figure too, so a wrong tally fails the run
    ctx.record({
      name: 'proposals whose results differ from the recount',
      value: Number(!sessionExact) + Number(!signedExact),
      unit: 'proposals',
      target: { op: '=', value: 0 },
    });
    console.log(`naive baseline (1 tx per vote, 1 tally row, no HTTP): ${naivePerSec.toFixed(0)} votes/s`);
    console.log(
      `session votes over REST: ${sessionRate.toFixed(0)} acknowledged/s (${JSON.stringify(session.statuses)}), ` +
        `p50 ${percentile(session.latencies, 50).toFixed(1)} ms, p99 ${percentile(session.latencies, 99).toFixed(1)} ms, ` +
        `${((100 * sessionRate) / boundRate).toFixed(0)} % of the bound (target ≥ 40 %: ${sessionRate >= 0.4 * boundRate ? 'met' : 'NOT met'}), ratio to naive ${(sessionRate / naivePerSec).toFixed(1)}x, tallies exact: ${sessionExact}`,
    );
    console.log(
      `EIP-712 signed votes over REST: ${signedRate.toFixed(0)} acknowledged/s (${JSON.stringify(signed.statuses)}), ` +
        `p99 ${percentile(signed.latencies, 99).toFixed(1)} ms, ${((100 * signedRate) / boundRate).toFixed(0)} % of the bound ` +
        `(target ≥ 25 %: ${signedRate >= 0.25 * boundRate ? 'met' : 'NOT met'}), ratio to naive ${(signedRate / naivePerSec).toFixed(1)}x, tallies exact: ${signedExact}`,
    );
    for (const [label, r] of [
      ['empty proposal', readsBefore],
      [`after ${session.statuses['201'] ?? 0} votes`, readsAfter],
    ] as const) {
      console.log(
        `results read (${label}): p50 ${percentile(r.latencies, 50).toFixed(2)} ms, p99 ${percentile(r.latencies, 99).toFixed(2)} ms ` +
          `(target p99 ≤ 5 ms: ${percentile(r.latencies, 99) <= 5 ? 'met' : 'NOT met'})`,
      );
    }
  } finally {
    await sql.end();
    await bound.close();
    await t.close();
  }
}
