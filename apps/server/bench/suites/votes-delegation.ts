import { cpus, loadavg } from 'node:os';
import postgres from 'postgres';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { memberUser } from '../../test/support/factories';
import { createDao, createProposal } from '../../test/support/governance';
import { apiClient } from '../../test/support/http';
import { type LoadRequest, type LoadResult, percentile, runLoad } from '../lib/http-load';
import { startServerProcess } from '../lib/server-process';
import { seedSessionVoters } from '../lib/session-voters';
import type { BenchContext } from '../run';

/**
 * Delegation on the vote path (docs/governance.md, "Counting"; docs/operations.md, "Benchmarks"), against
 * the same run's plain proposal:
 *
 * - Session votes over REST on a proposal where half the voters delegate (to a tenth as many delegates
 *   among the other half) and every voter votes, in an order that mixes delegates voting before and after
 *   their delegators (so both carrying and overriding happen all along), beside the same voters, bodies,
 *   order, count and concurrency on a proposal of a DAO without delegation. The runs go plain, delegation,
 *   delegation, plain (each on a fresh proposal) and each side is the mean of its two, so a machine that
 *   speeds up or slows down during the run weighs on both. Target: ≥ 0.85 of the plain rate. Both tallies
 *   must equal a recount from the stored ballots and the frozen electorate.
 * - The freeze of a 100,000-member DAO with 50,000 delegations (creating a proposal that starts now),
 *   beside the same DAO size without delegation, medians of 3 alternating runs. Target: under 3 s.
 */
const VOTERS = Number(process.env.BENCH_DELEGATION_VOTERS ?? 20_000);
const FREEZE_MEMBERS = Number(process.env.BENCH_FREEZE_MEMBERS ?? 100_000);
const FREEZE_ROUNDS = 3;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 256);
const POOL_SIZE = 20;

/** a deterministic shuffle (mulberry32), so every run votes in the same order */
function shuffled<T>(items: T[], seed = 28): T[] {
  const out = [...items];
  let s = seed;
  const next = () => {
    s = (s + 0x6d2b79f5) | 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export default async function votesDelegationBench(ctx: BenchContext) {
  const t = await startServerProcess({
    LOG_LEVEL: 'warn',
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    HTTP_MAX_CONNECTIONS_PER_IP: '0',
    IPFS_OFFLINE: 'true',
    // freezing 100,000 members on a busy shared machine can pass the 5 s default
    DATABASE_STATEMENT_TIMEOUT: '30s',
  });
  const sql = postgres(t.databaseUrl!, { max: 10, onnotice: () => {} });
  try {
    const api = apiClient(t.url);
    const owner = await memberUser(api);
    const plainDao = await createDao(api, owner, { threshold: 50, quorum: 10 });
    const delegDao = await createDao(api, owner, { threshold: 50, quorum: 10, delegation: true });

    // the same voters are members of both DAOs; in the delegation DAO the first half delegates, ten to
    // each delegate of the second half
    const voters = await seedSessionVoters(sql, plainDao.daoId, VOTERS);
    const members = voters.map((v) => ({ dao_id: delegDao.daoId, address: v.address, token_balance: '0' }));
    for (let i = 0; i < members.length; i += 5_000)
      await sql`insert into dao_members ${sql(members.slice(i, i + 5_000))}`;
    const half = Math.floor(VOTERS / 2);
    const delegateCount = Math.max(1, Math.floor(half / 10));
    const delegations = voters.slice(0, half).map((v, i) => ({
      dao_id: delegDao.daoId,
      delegator_address: v.address,
      delegate_address: voters[half + (i % delegateCount)]!.address,
    }));
    for (let i = 0; i < delegations.length; i += 5_000)
      await sql`insert into dao_delegations ${sql(delegations.slice(i, i + 5_000))}`;

    const choices = ['For', 'Against', 'Abstain'];
    const order = shuffled(voters.map((v, i) => ({ ...v, choice: choices[i % 5 === 0 ? 2 : i % 2]! })));
    const requests = (daoId: string, proposalId: string): LoadRequest[] =>
      order.map((v) => ({
        method: 'POST',
        path: '/votes',
        token: v.token,
        body: JSON.stringify({ proposalId, daoId, voterAddress: v.address, choice: v.choice }),
      }));
    const run = async (daoId: string, title: string) => {
      const p = await createProposal(api, owner, daoId, { title });
      const result = await runLoad(t.url, requests(daoId, p.proposalId), CONCURRENCY);
      return { proposalId: p.proposalId, result };
    };
    // warm-up (JIT, prepared statements, pool): a tenth of the votes on a throwaway proposal of each DAO
    const warm = Math.max(1, Math.floor(VOTERS / 10));
    for (const daoId of [plainDao.daoId, delegDao.daoId]) {
      const p = await createProposal(api, owner, daoId, { title: 'Warm-up' });
      await runLoad(t.url, requests(daoId, p.proposalId).slice(0, warm), CONCURRENCY);
    }
    const plain1 = await run(plainDao.daoId, 'Plain, first');
    const deleg1 = await run(delegDao.daoId, 'Delegation, first');
    const deleg2 = await run(delegDao.daoId, 'Delegation, second');
    const plain2 = await run(plainDao.daoId, 'Plain, second');

    const rate = (r: LoadResult) => (r.statuses['201'] ?? 0) / (r.elapsedMs / 1000);
    const plainRate = (rate(plain1.result) + rate(plain2.result)) / 2;
    const delegRate = (rate(deleg1.result) + rate(deleg2.result)) / 2;

    // exactness: the results equal a recount from the counted ballots and the frozen electorate (each
    // counted vote weighs its voter's frozen weight plus its frozen delegators' without a counted vote),
    // and every 201 is counted
    const exact = async (proposalId: string, acknowledged: number) => {
      const results = (await api.get(`/votes/proposal/${proposalId}/results`)).body as {
        totalVotes: number;
        options: { option: string; votes: number; weight: string }[];
      };
      const recount = await sql`
        with counted as (
          select voter_address, choice from votes where proposal_id = ${proposalId} and replaced_at is null
        ), carried as (
          select e.delegate_address as voter_address, sum(e.weight) as w from proposal_electorate e
          where e.proposal_id = ${proposalId} and e.delegate_address is not null
            and not exists (select 1 from votes v where v.proposal_id = ${proposalId}
              and v.voter_address = e.address and v.replaced_at is null)
          group by e.delegate_address
        )
        select c.choice, count(*)::int as n, sum(e.weight + coalesce(d.w, 0))::text as w
        from counted c
        join proposal_electorate e on e.proposal_id = ${proposalId} and e.address = c.voter_address
        left join carried d on d.voter_address = c.voter_address
        group by c.choice`;
      const byChoice = new Map(recount.map((r) => [r.choice as string, r]));
      return (
        results.totalVotes === acknowledged &&
        results.options.every(
          (o) =>
            (byChoice.get(o.option)?.n ?? 0) === o.votes && (byChoice.get(o.option)?.w ?? '0') === o.weight,
        )
      );
    };
    // fresh statistics for the recount's plan (without them it can take minutes on 100,000 rows)
    await sql`analyze votes`;
    await sql`analyze proposal_electorate`;
    const runs = [plain1, deleg1, deleg2, plain2];
    const inexact = (
      await Promise.all(runs.map((r) => exact(r.proposalId, r.result.statuses['201'] ?? 0)))
    ).filter((ok) => !ok).length;
    // both orders happened: delegators voting after their delegate (an override taking weight off a
    // counted vote) and before it
    const [mix] = await sql`select count(*) filter (where d.created_at < v.created_at)::int as after,
        count(*) filter (where d.created_at > v.created_at)::int as before
      from proposal_electorate e
      join votes v on v.proposal_id = e.proposal_id and v.voter_address = e.address and v.replaced_at is null
      join votes d on d.proposal_id = e.proposal_id and d.voter_address = e.delegate_address
        and d.replaced_at is null
      where e.proposal_id = ${deleg1.proposalId} and e.delegate_address is not null`;

    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} (figures scale with what else runs)`,
    );
    const describe = (label: string, r: LoadResult) =>
      `${label} ${rate(r).toFixed(0)}/s (${JSON.stringify(r.statuses)}, p99 ${percentile(r.latencies, 99).toFixed(1)} ms)`;
    console.log(
      `session votes, ${VOTERS} voters, ${half} of them delegating to ${delegateCount} delegates: ` +
        `${describe('plain', plain1.result)}, ${describe('delegation', deleg1.result)}, ` +
        `${describe('delegation', deleg2.result)}, ${describe('plain', plain2.result)}; ` +
        `means plain ${plainRate.toFixed(0)}, delegation ${delegRate.toFixed(0)} votes/s ` +
        `(${((100 * delegRate) / plainRate).toFixed(0)} % of plain, target ≥ 85 %); ` +
        `delegators voting after their delegate's vote (overrides): ${mix!.after}, before it: ${mix!.before}`,
    );
    ctx.record({
      name: 'session votes over REST, half the voters delegating',
      value: delegRate,
      unit: 'votes/s',
      baseline: { name: 'the same votes on a proposal without delegation', value: plainRate },
      target: { op: '>=', value: 0.85, of: 'baseline' },
    });
    ctx.record({
      name: 'proposals whose results differ from the recount (with delegation)',
      value: inexact,
      unit: 'proposals',
      target: { op: '=', value: 0 },
    });

    // the freeze: two DAOs of FREEZE_MEMBERS members (no accounts needed), one with delegation and half
    // its members delegating, ten to each delegate
    const addresses = Array.from({ length: FREEZE_MEMBERS }, () =>
      getAddress(privateKeyToAccount(generatePrivateKey()).address),
    );
    const bigPlain = await createDao(api, owner, { threshold: 50 });
    const bigDeleg = await createDao(api, owner, { threshold: 50, delegation: true });
    for (const daoId of [bigPlain.daoId, bigDeleg.daoId])
      for (let i = 0; i < addresses.length; i += 5_000)
        await sql`insert into dao_members ${sql(
          addresses.slice(i, i + 5_000).map((address) => ({ dao_id: daoId, address, token_balance: '0' })),
        )}`;
    const bigHalf = Math.floor(FREEZE_MEMBERS / 2);
    const bigDelegates = Math.max(1, Math.floor(bigHalf / 10));
    const bigDelegations = addresses.slice(0, bigHalf).map((a, i) => ({
      dao_id: bigDeleg.daoId,
      delegator_address: a,
      delegate_address: addresses[bigHalf + (i % bigDelegates)]!,
    }));
    for (let i = 0; i < bigDelegations.length; i += 5_000)
      await sql`insert into dao_delegations ${sql(bigDelegations.slice(i, i + 5_000))}`;
    await sql`analyze dao_members`;
    await sql`analyze dao_delegations`;
    const freeze = async (daoId: string) => {
      const start = performance.now();
      const p = await createProposal(api, owner, daoId, { title: 'Freeze' });
      const ms = performance.now() - start;
      if (p.status !== 'ACTIVE') throw new Error(`the proposal did not start (${p.status})`);
      return { ms, proposalId: p.proposalId };
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const plainFreezes: number[] = [];
    const delegFreezes: number[] = [];
    let frozenDelegations = 0;
    for (let i = 0; i < FREEZE_ROUNDS; i++) {
      plainFreezes.push((await freeze(bigPlain.daoId)).ms);
      const d = await freeze(bigDeleg.daoId);
      delegFreezes.push(d.ms);
      const [n] = await sql`select count(*)::int as n from proposal_electorate
        where proposal_id = ${d.proposalId} and delegate_address is not null`;
      frozenDelegations = n!.n;
    }
    if (frozenDelegations !== bigHalf)
      throw new Error(`the freeze kept ${frozenDelegations} delegations, not ${bigHalf}`);
    console.log(
      `freeze of ${FREEZE_MEMBERS} members: with ${bigHalf} delegations ${(median(delegFreezes) / 1000).toFixed(2)} s ` +
        `(${delegFreezes.map((m) => (m / 1000).toFixed(2)).join(', ')}), without ${(median(plainFreezes) / 1000).toFixed(2)} s ` +
        `(${plainFreezes.map((m) => (m / 1000).toFixed(2)).join(', ')}); medians of ${FREEZE_ROUNDS}, target with < 3 s`,
    );
    ctx.record({
      name: `freeze of ${FREEZE_MEMBERS} members with ${bigHalf} delegations`,
      value: median(delegFreezes) / 1000,
      unit: 's',
      baseline: { name: 'the same freeze without delegation', value: median(plainFreezes) / 1000 },
      target: { op: '<', value: 3 },
    });
  } finally {
    await sql.end();
    await t.close();
  }
}
