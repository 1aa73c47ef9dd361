import { daoDelegations, daoMembers, proposalElectorate, proposals } from '@plenum/db';
import { and, eq } from 'drizzle-orm';
import type { ChainReader, SnapshotBlock, TokenRef } from '../chain';
import type { ServiceBase } from '../service-base';
import type { DaoRow, ProposalRow } from './rows';

/**
 * The chain side of a token DAO's voting start (docs/governance.md, "Token holdings from the chain"): the
 * snapshot block and every member's weight at it, read before the freezing transaction so no database
 * lock waits on an RPC. A failed read leaves the proposal PENDING with `snapshotError` and a retry time
 * (backoff), and nothing frozen.
 */

export interface TokenSnapshot {
  block: SnapshotBlock;
  /**
   * member address → weight at the block; a holders-open DAO with delegation also reads its delegators
   * who are not members (docs/governance.md, "Counting")
   */
  weights: Map<string, bigint>;
  /** token-holders DAOs: the total supply at the block, the electorate's weight */
  totalSupply: bigint | null;
}

/** the token of a DAO's current rules, or of the rules a proposal was created under; null without one */
export const tokenOf = (
  dao: Pick<DaoRow, 'tokenChainId' | 'tokenAddress' | 'tokenStandard'>,
): TokenRef | null =>
  dao.tokenChainId !== null && dao.tokenAddress && dao.tokenStandard
    ? { chainId: dao.tokenChainId, address: dao.tokenAddress, standard: dao.tokenStandard }
    : null;

/** the container's parts used here; not `Services`, whose runtime.ts imports tokenOf (imports run one way) */
type ChainServices = ServiceBase & { chain: ChainReader };

export async function readTokenSnapshot(
  svc: ChainServices,
  p: ProposalRow,
  token: TokenRef,
): Promise<TokenSnapshot> {
  const reader = svc.chain;
  const block = await reader.snapshotBlock(token.chainId);
  const members = await svc.db
    .select({ address: daoMembers.address })
    .from(daoMembers)
    .where(eq(daoMembers.daoId, p.daoId));
  const addresses = new Set(members.map((m) => m.address));
  if (p.membership === 'token-holders' && p.delegation) {
    const delegators = await svc.db
      .select({ address: daoDelegations.delegatorAddress })
      .from(daoDelegations)
      .where(eq(daoDelegations.daoId, p.daoId));
    for (const d of delegators) addresses.add(d.address);
  }
  const weights = await reader.weightsAt(token, [...addresses], block.number);
  const totalSupply =
    p.membership === 'token-holders' ? await reader.totalSupplyAt(token, block.number) : null;
  return { block, weights, totalSupply };
}

/** the wait before the next attempt: 5 s doubling to 5 minutes */
export const snapshotBackoffMs = (attempts: number) =>
  Math.min(300_000, 5_000 * 2 ** Math.max(0, attempts - 1));

/** records a failed attempt on a proposal still PENDING; returns the row as it is now */
export async function recordSnapshotFailure(
  svc: ServiceBase,
  p: ProposalRow,
  err: unknown,
): Promise<ProposalRow> {
  const now = svc.clock.now();
  const attempts = p.snapshotAttempts + 1;
  const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
  svc.log.warn(
    { proposalId: p.id, attempts, err: message },
    'token snapshot failed: the proposal stays PENDING and retries',
  );
  const [row] = await svc.db
    .update(proposals)
    .set({
      snapshotError: `The token holdings could not be read: ${message}`.slice(0, 500),
      snapshotAttempts: attempts,
      snapshotRetryAt: new Date(now.getTime() + snapshotBackoffMs(attempts)),
    })
    .where(and(eq(proposals.id, p.id), eq(proposals.status, 'PENDING')))
    .returning();
  return row ?? p;
}

/**
 * A token-holders DAO: a wallet outside the frozen electorate votes with its weight at the proposal's
 * snapshot block, read once on its first vote and kept in the electorate (so a second read never differs).
 * Returns the weight kept, or null below the minimum, and the weight read. A chain that does not answer is
 * a 503 CHAIN_UNAVAILABLE.
 */
export async function admitHolder(
  svc: ChainServices,
  p: ProposalRow,
  holders: { token: TokenRef; minWeight: bigint },
  voter: string,
): Promise<{ weight: string | null; read: bigint }> {
  if (p.snapshotBlockNumber === null) return { weight: null, read: 0n };
  const weights = await svc.chain.weightsAt(holders.token, [voter], BigInt(p.snapshotBlockNumber));
  const weight = weights.get(voter) ?? 0n;
  if (weight === 0n || weight < holders.minWeight) return { weight: null, read: weight };
  await svc.db
    .insert(proposalElectorate)
    .values({ proposalId: p.id, address: voter, weight: weight.toString() })
    .onConflictDoNothing();
  const [kept] = await svc.db
    .select({ weight: proposalElectorate.weight })
    .from(proposalElectorate)
    .where(and(eq(proposalElectorate.proposalId, p.id), eq(proposalElectorate.address, voter)));
  return { weight: kept?.weight ?? null, read: weight };
}
