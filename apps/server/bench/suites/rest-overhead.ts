import { appRouter, type Context, createCallerFactory } from '@plenum/api';
import { startTestApp } from '../../test/support/app';
import { memberUser } from '../../test/support/factories';
import { createDao, createProposal } from '../../test/support/governance';
import { apiClient } from '../../test/support/http';
import type { BenchContext } from '../run';

const CALLS = Number(process.env.BENCH_REST_CALLS ?? 1_000);

/**
 * What a REST call costs beyond the procedure (docs/operations.md, "Benchmarks"): one cheap public read,
 * a proposal's results (`GET /votes/proposal/{proposalId}/results`, answered from the results cache),
 * called sequentially over REST, over tRPC HTTP and in-process through `createCaller` (the baseline in
 * the same run: the procedure without any HTTP). The three take turns in rounds, so a busy moment of the
 * machine falls on all of them alike.
 */
export default async function restOverheadBench(ctx: BenchContext) {
  const t = await startTestApp({ env: { LOG_LEVEL: 'silent' } });
  try {
    const api = apiClient(t.url);
    const owner = await memberUser(api);
    const dao = await createDao(api, owner);
    const { proposalId } = await createProposal(api, owner, dao.daoId);

    const context: Context = {
      svc: t.app.svc,
      principal: null,
      token: null,
      ip: '127.0.0.1',
      socketAddress: null,
      userAgent: null,
      requestId: 'bench',
      transport: 'rest',
      setSessionCookie() {},
      setHeader() {},
    };
    const caller = createCallerFactory(appRouter)(context);
    const trpcInput = encodeURIComponent(JSON.stringify({ proposalId }));

    const ways: Record<string, () => Promise<unknown>> = {
      'in-process (createCaller)': () => caller.governance.votes.results({ proposalId }),
      'tRPC HTTP': async () => {
        const res = await fetch(`${t.url}/trpc/governance.votes.results?input=${trpcInput}`);
        if (res.status !== 200) throw new Error(`tRPC ${res.status}`);
        return res.json();
      },
      REST: async () => {
        const res = await fetch(`${t.url}/votes/proposal/${proposalId}/results`);
        if (res.status !== 200) throw new Error(`REST ${res.status}`);
        return res.json();
      },
    };
    const total: Record<string, number> = {};
    for (const call of Object.values(ways)) for (let i = 0; i < 100; i++) await call(); // warm-up
    const rounds = 10;
    for (let r = 0; r < rounds; r++) {
      for (const [name, call] of Object.entries(ways)) {
        const start = performance.now();
        for (let i = 0; i < CALLS / rounds; i++) await call();
        total[name] = (total[name] ?? 0) + performance.now() - start;
      }
    }
    const perCall = Object.fromEntries(
      Object.entries(total).map(([name, ms]) => [name, (ms * 1000) / CALLS]),
    );

    const base = perCall['in-process (createCaller)']!;
    const baseline = { name: 'in-process createCaller', value: base };
    ctx.record({ name: 'results read in-process per call', value: base, unit: 'µs' });
    ctx.record({
      name: 'results read over tRPC HTTP per call',
      value: perCall['tRPC HTTP']!,
      unit: 'µs',
      baseline,
    });
    ctx.record({ name: 'results read over REST per call', value: perCall.REST!, unit: 'µs', baseline });
    for (const [name, us] of Object.entries(perCall))
      console.log(
        `${name.padEnd(28)} ${us.toFixed(0).padStart(6)} µs/call  ratio to in-process ${(us / base).toFixed(2)}`,
      );
    console.log(
      `REST overhead over in-process: ${(perCall.REST! - base).toFixed(0)} µs/call (tRPC HTTP: ${(perCall['tRPC HTTP']! - base).toFixed(0)} µs)`,
    );
  } finally {
    await t.close();
  }
}
