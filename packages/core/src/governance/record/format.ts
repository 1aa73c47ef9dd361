/**
 * The shapes of a proposal record's blocks, field by field in docs/governance.md ("The proposal record"),
 * and the ballot leaf: what of a vote is fixed when it is cast, so its CID is the vote's receipt at once.
 */

import type { votes } from '@plenum/db';
import type { ResultsView } from '../results';
import type { VoteMessage } from '../vote-signer';
import { type Block, type CID, encodeBlock } from './block';

export const RECORD_FORMAT = 'plenum-proposal-record/1';
/** electorate entries per page block */
export const ELECTORATE_PAGE_SIZE = 1_000;

export interface RecordRoot {
  format: typeof RECORD_FORMAT;
  body: CID;
  attestation: Attestation | null;
}

/** the server's Ed25519 signature over the bytes of the body's CID ("What the attestation proves") */
export interface Attestation {
  alg: 'Ed25519';
  publicKey: Uint8Array;
  signature: Uint8Array;
}

export type Choice = string | string[] | Record<string, number>;

export interface RecordBody {
  rules: Record<string, unknown> & {
    threshold: number;
    quorum: number;
    resultsVisibility: 'live' | 'after-end';
    allowVoteChange: boolean;
    delegation: boolean;
  };
  proposal: {
    proposalId: string;
    daoId: string;
    title: string;
    description: string;
    creatorAddress: string;
    status: ResultsView['status'];
    startTime: string;
    endTime: string;
    snapshotAt: string | null;
    finalizedAt: string | null;
    votingSystem: ResultsView['votingSystem'];
    votingOptions: string[];
    proposalData: Record<string, unknown>;
    cancellation: { cancelledAt: string; cancelledBy: string; reason: string | null } | null;
  };
  snapshot: {
    chainId: number | null;
    token: string | null;
    standard: string | null;
    blockNumber: number;
    blockHash: string;
    blockTime: string;
  } | null;
  electorate: { voters: number; weight: string; delegation: boolean; count: number; pages: CID | null };
  ballots: { count: number; root: CID | null };
  replaced: { count: number; root: CID | null };
  eip712: { domain: Record<string, string>; primaryType: 'Vote'; types: Record<string, unknown> };
  /** the results at the close, revealed, without `updatedAt` */
  results: RecordedResults;
}

export type RecordedResults = Omit<ResultsView, 'updatedAt'>;

export interface ElectorateEntry {
  address: string;
  weight: string;
  delegate: string | null;
}

export interface ElectoratePage {
  entries: ElectorateEntry[];
}

export interface BallotLeaf {
  voteId: string;
  proposalId: string;
  daoId: string;
  voter: string;
  choice: Choice;
  comment: string;
  castAt: string;
  orderKey: number;
  ownWeight: string;
  signed: { message: VoteMessage; signature: string } | null;
}

/** what of a stored vote the leaf reads */
export type LeafVote = Pick<
  typeof votes.$inferSelect,
  | 'id'
  | 'proposalId'
  | 'daoId'
  | 'voterAddress'
  | 'choice'
  | 'ballot'
  | 'ownWeight'
  | 'comment'
  | 'signature'
  | 'signedTimestamp'
  | 'signedChoice'
  | 'orderKey'
  | 'createdAt'
>;

/** a stored vote as its ballot leaf (docs/governance.md, "Ballots and their Merkle tree") */
export function ballotLeaf(v: LeafVote): BallotLeaf {
  const signed = v.signature !== null && v.signedTimestamp !== null;
  return {
    voteId: v.id,
    proposalId: v.proposalId,
    daoId: v.daoId,
    voter: v.voterAddress.toLowerCase(),
    choice: v.ballot ?? v.choice,
    comment: v.comment,
    castAt: v.createdAt.toISOString(),
    // votes from before order_key existed: the signed timestamp, else the second of createdAt (schema)
    orderKey: v.orderKey ?? v.signedTimestamp ?? Math.floor(v.createdAt.getTime() / 1000),
    ownWeight: v.ownWeight,
    signed: signed
      ? {
          message: {
            daoId: v.daoId,
            proposalId: v.proposalId,
            choice: v.signedChoice ?? v.choice,
            comment: v.comment,
            timestamp: v.signedTimestamp!,
          },
          signature: v.signature!,
        }
      : null,
  };
}

/** the vote's leaf block; its CID is the receipt */
export function ballotLeafBlock(v: LeafVote): Promise<Block> {
  return encodeBlock(ballotLeaf(v));
}

/** the receipt of a vote just cast: its ballot leaf's CID (docs/governance.md, "Receipts") */
export async function receiptOf(v: LeafVote): Promise<string> {
  return (await ballotLeafBlock(v)).cid.toString();
}
