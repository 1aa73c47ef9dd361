/**
 * Builds a proposal's record (docs/governance.md, "The proposal record") from its stored rows, as blocks:
 * the electorate and the ballots stream in (async iterables, in their documented order) and blocks stream
 * out, so memory stays bounded by a page of the electorate and log2(n) tree entries, whatever the number
 * of votes. Pure: no database, no IPFS; the caller stores the blocks.
 */

import type { ResultsView } from '../results';
import type { ProposalRow } from '../rows';
import { votingRulesView } from '../serialize';
import { VOTE_DOMAIN, VOTE_TYPES } from '../vote-signer';
import type { Attestor } from './attest';
import { type Block, type CID, encodeBlock } from './block';
import {
  ballotLeaf,
  ELECTORATE_PAGE_SIZE,
  type ElectorateEntry,
  type LeafVote,
  RECORD_FORMAT,
  type RecordBody,
  type RecordRoot,
} from './format';
import { MerkleTreeBuilder } from './merkle';

type Source<T> = AsyncIterable<T> | Iterable<T>;

export interface RecordInput {
  proposal: ProposalRow;
  /** the frozen electorate, by address ascending */
  electorate: Source<{ address: string; weight: string; delegateAddress: string | null }>;
  /** the counted votes, by (createdAt, id) ascending */
  ballots: Source<LeafVote>;
  /** the replaced votes, by (createdAt, id) ascending */
  replaced: Source<LeafVote>;
  /** the results at the close, revealed (resultsOf with `reveal`) */
  results: ResultsView;
  /** signs the body's CID; absent: the record carries no attestation */
  attest?: Attestor;
}

/** yields every block of the record; the last one is the root, whose CID is returned */
export async function* buildProposalRecord(input: RecordInput): AsyncGenerator<Block, CID> {
  const p = input.proposal;
  if (input.results.hidden) throw new Error('a record holds revealed results');
  if (input.results.proposalId !== p.id) throw new Error('the results are not the proposal’s');

  const electorate = new MerkleTreeBuilder();
  let page: ElectorateEntry[] = [];
  let count = 0;
  let last = '';
  async function* flush() {
    const block = await encodeBlock({ entries: page });
    yield block;
    yield* await electorate.push(block.cid);
    page = [];
  }
  for await (const e of input.electorate) {
    const address = e.address.toLowerCase();
    if (count > 0 && address <= last) throw new Error(`electorate out of order at ${address}`);
    last = address;
    count++;
    page.push({ address, weight: e.weight, delegate: e.delegateAddress?.toLowerCase() ?? null });
    if (page.length === ELECTORATE_PAGE_SIZE) yield* flush();
  }
  if (page.length) yield* flush();
  const pages = await electorate.finish();
  yield* pages.blocks;

  const ballots = yield* ballotTree(input.ballots);
  const replaced = yield* ballotTree(input.replaced);

  const { updatedAt: _, ...results } = input.results;
  const body: RecordBody = {
    rules: votingRulesView(p),
    proposal: {
      proposalId: p.id,
      daoId: p.daoId,
      title: p.title,
      description: p.description,
      creatorAddress: p.creatorAddress,
      status: p.status,
      startTime: p.startTime.toISOString(),
      endTime: p.endTime.toISOString(),
      snapshotAt: p.snapshotAt?.toISOString() ?? null,
      finalizedAt: p.finalizedAt?.toISOString() ?? null,
      votingSystem: p.votingSystem,
      votingOptions: p.votingOptions,
      proposalData: p.proposalData,
      cancellation:
        p.status === 'CANCELLED' && p.cancelledAt
          ? {
              cancelledAt: p.cancelledAt.toISOString(),
              cancelledBy: p.cancelledBy ?? '',
              reason: p.cancelReason,
            }
          : null,
    },
    snapshot:
      p.snapshotBlockNumber != null && p.snapshotBlockHash && p.snapshotBlockTime
        ? {
            chainId: p.tokenChainId,
            token: p.tokenAddress,
            standard: p.tokenStandard,
            blockNumber: p.snapshotBlockNumber,
            blockHash: p.snapshotBlockHash,
            blockTime: p.snapshotBlockTime.toISOString(),
          }
        : null,
    electorate: {
      voters: p.eligibleVoters,
      weight: p.eligibleWeight,
      delegation: p.delegation,
      count,
      pages: pages.root,
    },
    ballots,
    replaced,
    eip712: { domain: { ...VOTE_DOMAIN }, primaryType: 'Vote', types: structuredClone(VOTE_TYPES) },
    results,
  };
  const bodyBlock = await encodeBlock(body);
  yield bodyBlock;
  const root: RecordRoot = {
    format: RECORD_FORMAT,
    body: bodyBlock.cid,
    attestation: input.attest ? input.attest(bodyBlock.cid.bytes) : null,
  };
  const rootBlock = await encodeBlock(root);
  yield rootBlock;
  return rootBlock.cid;
}

/** the leaves and nodes of one ballot tree; returns its count and root */
async function* ballotTree(
  votes: Source<LeafVote>,
): AsyncGenerator<Block, { count: number; root: CID | null }> {
  const tree = new MerkleTreeBuilder();
  // the database's order is (created_at, id) at microseconds; a Date keeps milliseconds, so only the time
  // is checked here (ties at a millisecond may be in any id order)
  let last = Number.NEGATIVE_INFINITY;
  for await (const v of votes) {
    const at = v.createdAt.getTime();
    if (at < last) throw new Error(`ballots out of order at ${v.id}`);
    last = at;
    const leaf = await encodeBlock(ballotLeaf(v));
    yield leaf;
    yield* await tree.push(leaf.cid);
  }
  const { root, blocks } = await tree.finish();
  yield* blocks;
  return { count: tree.leaves, root };
}
