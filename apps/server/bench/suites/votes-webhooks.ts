import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import postgres from 'postgres';
import { memberUser } from '../../test/support/factories';
import { createDao, createProposal } from '../../test/support/governance';
import { apiClient } from '../../test/support/http';
import { type LoadRequest, type LoadResult, percentile, runLoad } from '../lib/http-load';
import { startServerProcess } from '../lib/server-process';
import { seedSessionVoters } from '../lib/session-voters';
import type { BenchContext } from '../run';

/**
 * Webhooks on the vote path (docs/webhooks.md, "Speed"; docs/operations.md, "Benchmarks"), run by
 * `npm run bench -- votes` too: session votes over REST (concurrency 256, compiled server, pool of 20) on a
 * DAO with 10 webhooks subscribed to `vote_cast`, each a real HTTP endpoint on loopback (its own process,
 * lib/webhook-receivers.mjs), beside the same count of votes on a DAO without webhooks in the same server.
 * After a warm-up of both sides, runs go without, with, with, without, each on a fresh proposal, each side
 * the mean of its two; after each
 * run with webhooks the deliveries drain before the next run starts (so their sending does not slow the
 * next run without). Target: ≥ 0.9 of the rate without. Also: every delivery received (10 per
 * acknowledged vote, by distinct message id), and the delivery rate from the run's start to its last
 * delivery.
 */
const VOTES = Number(process.env.BENCH_WEBHOOK_VOTES ?? 10_000);
const ENDPOINTS = 10;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 256);
const POOL_SIZE = 20;
/** a drain that makes no progress for this long has stalled (the figure then says what is missing) */
const STALL_MS = 60_000;

interface Counts {
  total: number;
  distinct: number;
  perEndpoint: number[];
}

async function startReceivers(n: number) {
  const child = spawn(
    process.execPath,
    [new URL('../lib/webhook-receivers.mjs', import.meta.url).pathname, String(n)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the webhook receivers exited (${code})`)));
  });
  const { endpoints, control } = JSON.parse(line) as { endpoints: string[]; control: string };
  return {
    endpoints,
    counts: async () => (await (await fetch(`${control}/count`)).json()) as Counts,
    close: () => {
      child.kill();
    },
  };
}

export default async function votesWebhooksBench(ctx: BenchContext) {
  const rx = await startReceivers(ENDPOINTS);
  const t = await startServerProcess({
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    HTTP_MAX_CONNECTIONS_PER_IP: '0',
    IPFS_OFFLINE: 'true',
    DATABASE_STATEMENT_TIMEOUT: '30s',
    // the receivers listen on loopback
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  const sql = postgres(t.databaseUrl!, { max: 10, onnotice: () => {} });
  try {
    const api = apiClient(t.url);
    const owner = await memberUser(api);
    const quiet = await createDao(api, owner, { threshold: 50, quorum: 10 });
    const hooked = await createDao(api, owner, { threshold: 50, quorum: 10 });
    for (const url of rx.endpoints) {
      const res = await api.post(
        '/webhooks',
        { url, events: ['vote_cast'], daoId: hooked.daoId },
        { token: owner.token },
      );
      if (res.status !== 201)
        throw new Error(`subscribing failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
    const voters = {
      quiet: await seedSessionVoters(sql, quiet.daoId, VOTES),
      hooked: await seedSessionVoters(sql, hooked.daoId, VOTES),
    };
    const choices = ['For', 'Against', 'Abstain'];
    const run = async (side: 'quiet' | 'hooked', title: string, count = VOTES) => {
      const dao = side === 'quiet' ? quiet : hooked;
      const proposal = await createProposal(api, owner, dao.daoId, { title });
      const requests: LoadRequest[] = voters[side].slice(0, count).map((v, i) => ({
        method: 'POST',
        path: '/votes',
        token: v.token,
        body: JSON.stringify({
          proposalId: proposal.proposalId,
          daoId: dao.daoId,
          voterAddress: v.address,
          choice: choices[i % 3]!,
        }),
      }));
      // each run starts from the same state: the previous run's writes flushed (one that followed
      // another straight away paid for its writes: ~30 % slower, with or without webhooks)
      await sql`checkpoint`;
      return runLoad(t.url, requests, CONCURRENCY);
    };
    const acknowledged = (r: LoadResult) => r.statuses['201'] ?? 0;
    const rate = (r: LoadResult) => acknowledged(r) / (r.elapsedMs / 1000);

    let expected = 0;
    /** waits until every delivery so far arrived (or the drain stalls); ms from `since` to the last one */
    const drain = async (since: number) => {
      let last = await rx.counts();
      let progressAt = performance.now();
      while (last.total < expected && performance.now() - progressAt < STALL_MS) {
        await new Promise((r) => setTimeout(r, 100));
        const now = await rx.counts();
        if (now.total > last.total) progressAt = performance.now();
        last = now;
      }
      return { counts: last, ms: progressAt - since };
    };

    // warm-up of both sides: code, pools, caches and kept connections at their working size
    await run('quiet', 'Warm-up', Math.min(VOTES, 2_000));
    const warm = await run('hooked', 'Warm-up with webhooks', Math.min(VOTES, 2_000));
    expected += acknowledged(warm) * ENDPOINTS;
    await drain(performance.now());
    const without1 = await run('quiet', 'Without webhooks 1');
    const started1 = performance.now();
    const with1 = await run('hooked', 'With webhooks 1');
    expected += acknowledged(with1) * ENDPOINTS;
    const drain1 = await drain(started1);
    const started2 = performance.now();
    const with2 = await run('hooked', 'With webhooks 2');
    expected += acknowledged(with2) * ENDPOINTS;
    const drain2 = await drain(started2);
    const without2 = await run('quiet', 'Without webhooks 2');

    const withoutRate = (rate(without1) + rate(without2)) / 2;
    const withRate = (rate(with1) + rate(with2)) / 2;
    const received = drain2.counts;
    const missing = Math.max(0, expected - received.distinct);
    const deliveries = [acknowledged(with1) * ENDPOINTS, acknowledged(with2) * ENDPOINTS];
    const deliveryRate = (deliveries[0]! + deliveries[1]!) / ((drain1.ms + drain2.ms) / 1000);

    ctx.record({
      name: 'session votes over REST, DAO without webhooks',
      value: withoutRate,
      unit: 'votes/s',
    });
    ctx.record({
      name: `session votes over REST, DAO with ${ENDPOINTS} webhooks on vote_cast`,
      value: withRate,
      unit: 'votes/s',
      baseline: { name: 'the same without webhooks (same run)', value: withoutRate },
      target: { op: '>=', value: 0.9, of: 'baseline' },
    });
    ctx.record({
      name: `webhook deliveries (${ENDPOINTS} endpoints, from the run's first vote to the last delivery)`,
      value: deliveryRate,
      unit: 'deliveries/s',
    });
    ctx.record({
      name: 'webhook deliveries not received after the drain',
      value: missing,
      unit: 'deliveries',
      target: { op: '=', value: 0 },
    });
    const runText = (r: LoadResult) =>
      `${rate(r).toFixed(0)}/s (${JSON.stringify(r.statuses)}, p99 ${percentile(r.latencies, 99).toFixed(1)} ms)`;
    console.log(
      `votes without webhooks: ${runText(without1)} and ${runText(without2)}; with ${ENDPOINTS} webhooks on ` +
        `vote_cast: ${runText(with1)} and ${runText(with2)}: ratio ${(withRate / withoutRate).toFixed(2)} ` +
        `(target ≥ 0.9: ${withRate >= 0.9 * withoutRate ? 'met' : 'NOT met'})`,
    );
    console.log(
      `webhook deliveries: ${received.total} received (${received.distinct} distinct, ${expected} expected, ` +
        `${missing} missing; per endpoint ${received.perEndpoint.join(' ')}), drained ` +
        `${(drain1.ms / 1000).toFixed(1)} s and ${(drain2.ms / 1000).toFixed(1)} s after each run's start: ` +
        `${deliveryRate.toFixed(0)} deliveries/s`,
    );
  } finally {
    await sql.end();
    await t.close();
    rx.close();
  }
}
