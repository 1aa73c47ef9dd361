/**
 * Test data for records (core's and packages/verify's tests): a closed proposal, its electorate and votes,
 * counted the way the server counts them, as the builder's input. Not used by the product.
 */

import type { VotingSystemName } from '@plenum/db';
import type { LocalAccount } from 'viem/accounts';
import { resultsView } from '../results';
import type { ProposalRow } from '../rows';
import { addDeltas, storedChoice, tallyDeltas } from '../system-tallies';
import { requireBallot, systemOptions } from '../systems';
import type { OptionCount } from '../tally';
import { VOTE_DOMAIN, VOTE_TYPES } from '../vote-signer';
import type { RecordInput } from './build';
import type { Choice, LeafVote } from './format';
import { delegatedWeights, type FrozenEntry } from './recount';

export interface FixtureVote {
  voter: string;
  choice: Choice;
  /** signs the vote (EIP-712); absent: a session vote */
  signer?: LocalAccount;
  comment?: string;
}

export interface FixtureSpec {
  system?: VotingSystemName;
  options?: string[];
  electorate: { address: string; weight: bigint; delegate?: string }[];
  /** in the order cast; a later vote of the same voter replaces the earlier */
  votes: FixtureVote[];
  delegation?: boolean;
  threshold?: number;
  quorum?: number;
  cancelled?: boolean;
  snapshot?: { blockNumber: number; blockHash: string; blockTime: Date };
  proposalId?: string;
}

const BASE = Date.parse('2030-01-01T00:00:00Z');

/** a plain address from a number (no key behind it) */
export const fixtureAddress = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

export type ElectorateRow = { address: string; weight: string; delegateAddress: string | null };

/** the builder's input, its sources as arrays; `votes`: every vote in the order cast */
export type RecordFixture = RecordInput & {
  electorate: ElectorateRow[];
  ballots: LeafVote[];
  replaced: LeafVote[];
  votes: LeafVote[];
};

export async function recordFixture(spec: FixtureSpec): Promise<RecordFixture> {
  const system = spec.system ?? 'single-choice';
  const votingOptions = spec.options ?? ['For', 'Against', 'Abstain'];
  const daoId = '00000000-0000-4000-8000-0000000000da';
  const proposalId = spec.proposalId ?? '00000000-0000-4000-8000-00000000000b';
  const frozen = new Map<string, FrozenEntry>(
    spec.electorate.map((e) => [
      e.address.toLowerCase(),
      { weight: e.weight, delegate: spec.delegation ? (e.delegate?.toLowerCase() ?? null) : null },
    ]),
  );

  const rows: (LeafVote & { replacedAt: Date | null })[] = [];
  for (const [i, v] of spec.votes.entries()) {
    const voter = v.voter.toLowerCase();
    const own = frozen.get(voter);
    if (!own) throw new Error(`${voter} is not in the electorate`);
    const ballot = requireBallot(system, systemOptions(system, votingOptions), v.choice);
    const { choice, ballot: json } = storedChoice(ballot);
    const createdAt = new Date(BASE + 1000 * (i + 1));
    const timestamp = Math.floor(createdAt.getTime() / 1000);
    const comment = v.comment ?? '';
    const signature = v.signer
      ? await v.signer.signTypedData({
          domain: VOTE_DOMAIN,
          types: VOTE_TYPES,
          primaryType: 'Vote',
          message: { daoId, proposalId, choice, comment, timestamp: BigInt(timestamp) },
        })
      : null;
    for (const r of rows) if (r.voterAddress === voter && !r.replacedAt) r.replacedAt = createdAt;
    rows.push({
      id: `00000000-0000-4000-8000-${(i + 1).toString(16).padStart(12, '0')}`,
      proposalId,
      daoId,
      voterAddress: voter,
      choice,
      ballot: json,
      ownWeight: own.weight.toString(),
      comment,
      signature,
      signedTimestamp: signature ? timestamp : null,
      signedChoice: null,
      orderKey: timestamp,
      createdAt,
      replacedAt: null,
    });
  }
  const counted = rows.filter((r) => !r.replacedAt);
  const replaced = rows.filter((r) => r.replacedAt);
  const delegated = delegatedWeights(frozen, new Set(counted.map((r) => r.voterAddress)));

  const byOption = new Map<string, OptionCount>();
  for (const r of counted) {
    const weight = BigInt(r.ownWeight) + (delegated.get(r.voterAddress) ?? 0n);
    const ballot = requireBallot(system, systemOptions(system, votingOptions), r.ballot ?? r.choice);
    addDeltas(byOption, tallyDeltas(ballot, weight));
  }
  const eligibleWeight = [...frozen.values()].reduce((s, e) => s + e.weight, 0n);
  const endTime = new Date(BASE + 86_400_000);
  const proposal = {
    id: proposalId,
    daoId,
    title: 'A record fixture',
    description: '',
    creatorAddress: spec.electorate[0]!.address.toLowerCase(),
    status: 'ACTIVE',
    startTime: new Date(BASE),
    endTime,
    proposalData: {},
    votingOptions,
    votingSystem: system,
    snapshotAt: new Date(BASE),
    snapshotBlockNumber: spec.snapshot?.blockNumber ?? null,
    snapshotBlockHash: spec.snapshot?.blockHash ?? null,
    snapshotBlockTime: spec.snapshot?.blockTime ?? null,
    snapshotError: null,
    snapshotAttempts: 0,
    snapshotRetryAt: null,
    eligibleVoters: frozen.size,
    eligibleWeight: eligibleWeight.toString(),
    finalizedAt: endTime,
    reminderSentAt: null,
    threshold: String(spec.threshold ?? 50),
    minVotingPeriod: '1',
    tokenWeighted: true,
    quorum: String(spec.quorum ?? 0),
    resultsVisibility: 'live',
    allowVoteChange: true,
    tokenChainId: spec.snapshot ? 31337 : null,
    tokenAddress: spec.snapshot ? fixtureAddress(0xe20) : null,
    tokenStandard: spec.snapshot ? 'erc20' : null,
    tokenSymbol: spec.snapshot ? 'GOV' : null,
    tokenDecimals: spec.snapshot ? 18 : null,
    membership: 'members',
    minWeight: null,
    proposers: 'members',
    proposalThreshold: null,
    maxActiveProposalsPerAuthor: null,
    delegation: spec.delegation ?? false,
    cancelledAt: spec.cancelled ? endTime : null,
    cancelledBy: spec.cancelled ? spec.electorate[0]!.address.toLowerCase() : null,
    cancelReason: spec.cancelled ? 'fixture' : null,
    recordCid: null,
    recordPublishedAt: null,
    recordClaimedUntil: null,
    recordAttempts: 0,
    recordError: null,
    createdAt: new Date(BASE),
    updatedAt: endTime,
  } satisfies ProposalRow as ProposalRow;
  const basis = {
    proposalId,
    status: proposal.status,
    votingOptions,
    votingSystem: system,
    eligibleVoters: proposal.eligibleVoters,
    eligibleWeight,
    threshold: proposal.threshold,
    quorum: proposal.quorum,
    resultsVisibility: proposal.resultsVisibility,
    endTime,
    snapshotBlockNumber: proposal.snapshotBlockNumber,
    snapshotBlockHash: proposal.snapshotBlockHash,
    snapshotBlockTime: proposal.snapshotBlockTime,
  };
  const open = resultsView(basis, byOption, endTime, { reveal: true });
  proposal.status = spec.cancelled ? 'CANCELLED' : open.passing ? 'PASSED' : 'REJECTED';
  const results = resultsView({ ...basis, status: proposal.status }, byOption, endTime, { reveal: true });
  const electorate: ElectorateRow[] = [...frozen]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([address, e]) => ({ address, weight: e.weight.toString(), delegateAddress: e.delegate }));
  return {
    proposal,
    electorate,
    ballots: counted,
    replaced,
    results,
    votes: rows,
  };
}
