import { deployMulticall3, deployToken, mine, mint, startAnvil } from '@plenum/contracts';
import postgres from 'postgres';
import { getAddress, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startTestApp } from '../../test/support/app';
import { memberUser } from '../../test/support/factories';
import { createDao, createProposal } from '../../test/support/governance';
import { apiClient } from '../../test/support/http';
import type { BenchContext } from '../run';

/**
 * The electorate freeze of a token DAO (docs/governance.md, "Token holdings from the chain"): a proposal of
 * a 10,000-member DAO whose weights are read at the snapshot block from a local anvil node (Multicall3
 * deployed), beside the same freeze with balances kept in the database (manual), in the same run: seconds
 * to create the proposal (which freezes the electorate) and the RPC requests it took.
 */
const MEMBERS = Number(process.env.BENCH_TOKEN_MEMBERS ?? 10_000);
const HOLDERS = 200;
const ROUNDS = 3;

export default async function tokenFreezeBench(ctx: BenchContext) {
  const anvil = await startAnvil();
  const t = await startTestApp({
    env: { LOG_LEVEL: 'silent', CHAIN_RPC_URLS: `${anvil.chainId}=${anvil.url}` },
  });
  const sql = postgres(t.databaseUrl!, { max: 4, onnotice: () => {} });
  try {
    await deployMulticall3(anvil);
    await mine(anvil, 1);
    const token = await deployToken(anvil, { standard: 'erc20', name: 'Bench', symbol: 'BNCH' });
    const addresses = Array.from({ length: MEMBERS }, () =>
      getAddress(privateKeyToAccount(generatePrivateKey()).address),
    );
    for (const a of addresses.slice(0, HOLDERS)) await mint(anvil, token, a, parseUnits('5', 18));
    const api = apiClient(t.url);
    const owner = await memberUser(api);
    const seed = async (daoId: string, balance: string) => {
      for (let i = 0; i < addresses.length; i += 5_000)
        await sql`insert into dao_members ${sql(
          addresses
            .slice(i, i + 5_000)
            .map((address) => ({ dao_id: daoId, address, token_balance: balance })),
        )}`;
    };
    const manual = await createDao(api, owner, { threshold: 50, tokenWeighted: true });
    await seed(manual.daoId, '5');
    const chain = await createDao(api, owner, {
      threshold: 50,
      token: { chainId: anvil.chainId, address: token, standard: 'erc20' },
    });
    await seed(chain.daoId, '0');

    const reader = t.app.svc.chain;
    const freeze = async (daoId: string) => {
      const before = reader.rpcRequests;
      const start = performance.now();
      const p = await createProposal(api, owner, daoId);
      const ms = performance.now() - start;
      if (p.status !== 'ACTIVE') throw new Error(`the proposal did not start: ${p.snapshotError}`);
      return { ms, rpc: reader.rpcRequests - before };
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const manualRuns: number[] = [];
    const chainRuns: { ms: number; rpc: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      manualRuns.push((await freeze(manual.daoId)).ms);
      chainRuns.push(await freeze(chain.daoId));
    }
    const chainMs = median(chainRuns.map((r) => r.ms));
    const rpc = Math.max(...chainRuns.map((r) => r.rpc));
    ctx.record({
      name: `token DAO freeze of ${MEMBERS} members (weights read from the chain)`,
      value: chainMs / 1000,
      unit: 's',
      baseline: { name: 'the same freeze with balances in the database', value: median(manualRuns) / 1000 },
    });
    ctx.record({
      name: `RPC requests per freeze of ${MEMBERS} members`,
      value: rpc,
      unit: 'requests',
      target: { op: '<=', value: 30 },
    });
    console.log(
      `freeze of ${MEMBERS} members: from the chain ${(chainMs / 1000).toFixed(2)} s in ${rpc} RPC requests; ` +
        `manual balances ${(median(manualRuns) / 1000).toFixed(2)} s (medians of ${ROUNDS})`,
    );
  } finally {
    await sql.end();
    await t.close();
    await anvil.stop();
  }
}
