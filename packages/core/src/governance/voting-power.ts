import { proposalElectorate, votes } from '@plenum/db';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import type { TokenRef } from '../chain';
import type { Services } from '../services';
import { authorityOf, can } from './dao-authority';
import { ineligibility, voterFacts } from './eligibility';
import { requireDao, requireProposal } from './rows';
import { snapshotBlockView, voteView } from './serialize';
import { ensureCurrentStatus } from './status-automation';
import { tokenOf } from './token-snapshot';
import { resultsHiddenNow } from './vote-visibility';

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
  const withDelegation = p.delegation && p.status !== 'PENDING';
  const [[voted], facts, [carried], [frozen]] = await Promise.all([
    svc.db
      .select({ id: votes.id })
      .from(votes)
      .where(and(eq(votes.proposalId, p.id), eq(votes.voterAddress, address), isNull(votes.replacedAt)))
      .limit(1),
    voterFacts(svc.db, p.daoId, address),
    // its frozen delegators without a counted vote: what its vote carries, or would carry, now
    // (docs/governance.md, "Counting"); none before the start or without the rule
    withDelegation
      ? svc.db
          .select({
            n: sql<number>`count(*)::int`,
            w: sql<string>`coalesce(sum(${proposalElectorate.weight}), 0)::text`,
          })
          .from(proposalElectorate)
          .where(
            and(
              eq(proposalElectorate.proposalId, p.id),
              eq(proposalElectorate.delegateAddress, address),
              sql`not exists (select 1 from ${votes} where ${votes.proposalId} = ${p.id}
                and ${votes.voterAddress} = ${proposalElectorate.address} and ${votes.replacedAt} is null)`,
            ),
          )
      : [{ n: 0, w: '0' }],
    // its own delegate frozen for the proposal, and that delegate's counted vote (the newest if several)
    withDelegation
      ? svc.db
          .select({ delegate: proposalElectorate.delegateAddress, vote: votes })
          .from(proposalElectorate)
          .leftJoin(
            votes,
            and(
              eq(votes.proposalId, proposalElectorate.proposalId),
              eq(votes.voterAddress, proposalElectorate.delegateAddress),
              isNull(votes.replacedAt),
            ),
          )
          .where(
            and(
              eq(proposalElectorate.proposalId, p.id),
              eq(proposalElectorate.address, address),
              isNotNull(proposalElectorate.delegateAddress),
            ),
          )
          .limit(1)
      : [],
  ]);
  // the rules the proposal was created under; the DAO's status is today's
  const token = tokenOf(p);
  const holdersOpen = p.membership === 'token-holders' && token !== null;
  let weight: string | null = null;
  let holder: { weight: bigint; minWeight: bigint } | null = null;
  if (p.status !== 'PENDING') {
    const entry = await svc.governance.proposal(p.id);
    weight = entry?.electorate?.get(address) ?? null;
    if (weight === null && holdersOpen && p.snapshotBlockNumber !== null) {
      const read = await svc.chain.weightsAt(token as TokenRef, [address], BigInt(p.snapshotBlockNumber));
      holder = { weight: read.get(address) ?? 0n, minWeight: BigInt(p.minWeight ?? '1') };
    }
  }
  const reason = ineligibility({
    now: svc.clock.now(),
    proposal: p,
    dao: { status: dao.status, tokenWeighted: p.tokenWeighted, holdersOpen },
    member: facts.member,
    account: facts.account,
    weight,
    holder,
  });
  // what this address may do to the proposal now (docs/governance.md, "Cancelling a proposal", "Editing a
  // proposal")
  const now = svc.clock.now();
  const authority = await authorityOf(svc.db, dao, address);
  const author = p.creatorAddress === address;
  const open = p.status === 'PENDING' || (p.status === 'ACTIVE' && now < p.endTime);
  return {
    proposalId: p.id,
    address,
    weight: weight ?? holder?.weight.toString() ?? '0',
    // what its counted vote carries, or its vote would carry now; nothing when it cannot vote
    delegatedWeight: voted || reason === null ? carried!.w : '0',
    delegatorCount: voted || reason === null ? Number(carried!.n) : 0,
    eligible: reason === null,
    reason,
    // whom its weight goes to while it has not voted; the delegate's choice only where votes show it
    delegate: frozen?.delegate
      ? {
          address: frozen.delegate,
          hasVoted: !!frozen.vote,
          choice: frozen.vote && !resultsHiddenNow(p) ? voteView(frozen.vote).choice : null,
        }
      : null,
    member: !!facts.member,
    hasVoted: !!voted,
    canCancel: open && (author || can(authority, 'cancel')),
    canEdit: p.status === 'PENDING' && now < p.startTime && (author || can(authority, 'settings')),
    snapshotBlock: snapshotBlockView(p),
  };
}

/** GET /chains/{chainId}/tokens/{address}: a token's symbol and decimals, for the DAO form */
export async function describeToken(svc: Services, params: TokenRef) {
  const address = canonicalAddress(params.address, 'address');
  const found = await svc.chain.describeToken({ ...params, address });
  return { chainId: params.chainId, address, standard: params.standard, ...found };
}
