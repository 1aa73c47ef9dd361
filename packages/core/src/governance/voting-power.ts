import { daoMembers, votes } from '@plenum/db';
import type { IneligibleReason } from '@plenum/validators';
import { and, eq, isNull } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import { chainReaderOf, type TokenRef } from '../chain';
import type { Services } from '../services';
import { requireDao, requireProposal } from './rows';
import { governanceRuntime } from './runtime';
import { snapshotBlockView } from './serialize';
import { ensureCurrentStatus } from './status-automation';
import { tokenOf } from './token-snapshot';

/**
 * GET /proposals/{proposalId}/voting-power/{address}: "can I vote, and with what weight?" before signing
 * anything. The weight is the frozen electorate's (for a token-holders DAO, the holder's weight at the
 * snapshot block, read from the chain and not stored until it votes); `reason` says why not when
 * `eligible` is false. Public, like the votes and their weights.
 */
export async function getVotingPower(svc: Services, params: { proposalId: string; address: string }) {
  const address = canonicalAddress(params.address, 'address');
  const p = await ensureCurrentStatus(svc, await requireProposal(svc.db, params.proposalId));
  const dao = await requireDao(svc.db, p.daoId);
  const [voted] = await svc.db
    .select({ id: votes.id })
    .from(votes)
    .where(and(eq(votes.proposalId, p.id), eq(votes.voterAddress, address), isNull(votes.replacedAt)))
    .limit(1);
  // one read of the membership: whether, and since when (joined after the start, or no weight at it)
  const [memberRow] = await svc.db
    .select({ addedAt: daoMembers.addedAt })
    .from(daoMembers)
    .where(and(eq(daoMembers.daoId, p.daoId), eq(daoMembers.address, address)))
    .limit(1);
  const member = !!memberRow;
  const answer = (weight: string, reason: IneligibleReason | null) => ({
    proposalId: p.id,
    address,
    weight,
    eligible: reason === null,
    reason,
    member,
    hasVoted: !!voted,
    snapshotBlock: snapshotBlockView(p),
  });
  if (p.status === 'PENDING') return answer('0', 'NOT_STARTED');

  const entry = await governanceRuntime(svc).proposal(p.id);
  let weight = entry?.electorate?.get(address) ?? null;
  const token = tokenOf(dao);
  const holdersOpen = dao.membership === 'token-holders' && token !== null;
  if (weight === null && holdersOpen && p.snapshotBlockNumber !== null) {
    const read = await chainReaderOf(svc).weightsAt(
      token as TokenRef,
      [address],
      BigInt(p.snapshotBlockNumber),
    );
    const w = read.get(address) ?? 0n;
    if (w === 0n) return answer('0', 'NO_WEIGHT');
    if (w < BigInt(dao.minWeight ?? '1')) return answer(w.toString(), 'BELOW_MIN_WEIGHT');
    weight = w.toString();
  }
  const ended = p.status !== 'ACTIVE';
  if (weight !== null) {
    // a member removed after the start has lost the vote (members DAOs)
    if (!holdersOpen && !member) return answer(weight, 'NOT_A_MEMBER');
    return answer(weight, ended ? 'ENDED' : null);
  }
  if (!member) return answer('0', 'NOT_A_MEMBER');
  // a member outside the electorate: joined after the start, or (weighted DAOs) no weight at the start
  const addedAfter = !dao.tokenWeighted || memberRow!.addedAt > (p.snapshotAt ?? p.startTime);
  return answer('0', addedAfter ? 'JOINED_AFTER_START' : 'NO_WEIGHT');
}

/** GET /chains/{chainId}/tokens/{address}: a token's symbol and decimals, for the DAO form */
export async function describeToken(svc: Services, params: TokenRef) {
  const address = canonicalAddress(params.address, 'address');
  const found = await chainReaderOf(svc).describeToken({ ...params, address });
  return { chainId: params.chainId, address, standard: params.standard, ...found };
}
