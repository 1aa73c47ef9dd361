/**
 * The recount of a record (docs/governance.md, "The verifier"): the delegated weights from the frozen
 * electorate, and the results from the counted ballots, through the very functions the server counts with
 * (tallyDeltas, scoresFromTallies and resultsView), so the verifier never carries a copy of the rules.
 */

import { canonicalChoice } from '@plenum/validators';
import { resultsView } from '../results';
import { addDeltas, storedBallot, tallyDeltas } from '../system-tallies';
import type { OptionCount } from '../tally';
import type { Choice, RecordBody, RecordedResults } from './format';

export interface FrozenEntry {
  weight: bigint;
  delegate: string | null;
}

/**
 * Each voter's delegated weight (docs/governance.md, "Counting"): the frozen weights of its frozen
 * delegators that have no counted ballot. No chaining: only a delegator's own delegate carries it.
 */
export function delegatedWeights(
  electorate: ReadonlyMap<string, FrozenEntry>,
  voters: ReadonlySet<string>,
): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const [address, e] of electorate) {
    if (!e.delegate || voters.has(address) || !voters.has(e.delegate)) continue;
    out.set(e.delegate, (out.get(e.delegate) ?? 0n) + e.weight);
  }
  return out;
}

/** a recorded choice as the system's ballot; throws when it is not one of the proposal's ballots */
export function recordedBallot(body: Pick<RecordBody, 'proposal'>, choice: Choice) {
  const { votingSystem, votingOptions } = body.proposal;
  return storedBallot(
    votingSystem,
    votingOptions,
    typeof choice === 'string' ? choice : canonicalChoice(choice),
  );
}

/** the results the counted ballots give under the record's rules and electorate totals */
export function recountResults(
  body: Pick<RecordBody, 'proposal' | 'rules' | 'electorate' | 'snapshot'>,
  counted: Iterable<{ choice: Choice; weight: bigint }>,
): RecordedResults {
  const byOption = new Map<string, OptionCount>();
  for (const c of counted) addDeltas(byOption, tallyDeltas(recordedBallot(body, c.choice), c.weight));
  const { proposal, rules, electorate, snapshot } = body;
  const { updatedAt: _, ...results } = resultsView(
    {
      proposalId: proposal.proposalId,
      status: proposal.status,
      votingOptions: proposal.votingOptions,
      votingSystem: proposal.votingSystem,
      eligibleVoters: electorate.voters,
      eligibleWeight: electorate.weight,
      threshold: rules.threshold,
      quorum: rules.quorum,
      resultsVisibility: rules.resultsVisibility,
      endTime: new Date(proposal.endTime),
      snapshotBlockNumber: snapshot?.blockNumber ?? null,
      snapshotBlockHash: snapshot?.blockHash ?? null,
      snapshotBlockTime: snapshot ? new Date(snapshot.blockTime) : null,
    },
    byOption,
    new Date(0),
    { reveal: true },
  );
  return results;
}
