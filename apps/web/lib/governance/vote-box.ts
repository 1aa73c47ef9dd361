import type { ProposalStatus } from './types';

/** What governance.votes.power says of one address (null while unknown). */
export interface PowerOf {
  eligible: boolean;
  hasVoted: boolean;
}

export type VoteBoxMode =
  /** voting has not started, or has ended: no ballot */
  | 'closed'
  /** a vote of mine is counted: "Your vote: …" instead of the ballot */
  | 'voted'
  /** voting power still unknown */
  | 'loading'
  /** at least one address of mine may vote: the ballot */
  | 'ballot'
  /** none of my linked wallets may vote and no browser wallet is connected: offer to connect one */
  | 'connect'
  /** none of my addresses may vote: the reasons, no ballot */
  | 'cannot';

export interface VoteBoxInput {
  status: ProposalStatus;
  allowVoteChange: boolean;
  /** the user wants the ballot again after voting (change vote, or vote with another wallet) */
  reopened: boolean;
  /** my linked wallets that may act with the session (the email is verified) */
  sessionWallets: string[];
  /** the connected browser wallet, if any */
  connected: string | undefined;
  powerOf: (address: string) => PowerOf | undefined;
  /** how many of my addresses (linked or connected) have a counted vote */
  myVotes: number;
}

/**
 * "Can I vote?" before any signature (docs/governance.md): which of my addresses the ballot offers, and
 * what the vote box shows instead when none can vote. An address offers itself when the server says it
 * is eligible and it has not voted (or the DAO lets a vote be changed).
 */
export function voteBox(input: VoteBoxInput): {
  mode: VoteBoxMode;
  ballotWallets: string[];
  walletOption: boolean;
} {
  const { status, allowVoteChange, sessionWallets, connected, powerOf } = input;
  const usable = (a: string) => {
    const p = powerOf(a);
    return !!p && p.eligible && (allowVoteChange || !p.hasVoted);
  };
  const ballotWallets = sessionWallets.filter(usable);
  // a wallet not connected yet is checked when it connects, before it signs
  const walletOption = connected ? usable(connected) : ballotWallets.length > 0;
  const none = { ballotWallets: [], walletOption: false };
  if (status !== 'ACTIVE') return { mode: 'closed', ...none };
  if (input.myVotes > 0 && !input.reopened) return { mode: 'voted', ballotWallets, walletOption };
  const addresses = connected ? [...sessionWallets, connected] : sessionWallets;
  if (addresses.some((a) => powerOf(a) === undefined)) return { mode: 'loading', ...none };
  if (ballotWallets.length > 0 || walletOption) return { mode: 'ballot', ballotWallets, walletOption };
  return { mode: connected ? 'cannot' : 'connect', ...none };
}
