import { sameAddress } from '../governance/types';

/**
 * Delegation in the web app (docs/governance.md, "Delegation"): which sentence the proposal page says
 * about my delegate, who may delegate, participation in words. Pure, so it is tested without a browser.
 */

/** a ballot as votes carry it: an option, approved options, a ranking or points per option */
export type Ballot = string | string[] | Record<string, number>;

/** the part of governance.votes.power this needs (docs/governance.md, "Counting") */
export interface PowerWithDelegate {
  address: string;
  hasVoted: boolean;
  delegatedWeight: string;
  delegatorCount: number;
  /** this address's delegate frozen for the proposal; choice null while it has not voted or results are hidden */
  delegate?: { address: string; hasVoted: boolean; choice: Ballot | null } | null;
}

export type DelegateLine =
  /** my delegate voted and I have not: my weight goes with their ballot (choice null: hidden) */
  | { kind: 'delegateVoted'; wallet: string; delegate: string; choice: Ballot | null }
  /** my delegate has not voted and neither have I */
  | { kind: 'delegateNotVoted'; wallet: string; delegate: string }
  /** I voted myself although I delegate: my weight is my own ballot's */
  | { kind: 'votedMyself'; wallet: string; delegate: string }
  /** I am a delegate: I vote for these delegators */
  | { kind: 'asDelegate'; wallet: string; count: number; weight: string };

/**
 * The lines of the proposal page's delegation status, one per situation of each of my wallets: first as
 * a delegator (a frozen delegate), then as a delegate (frozen delegators without a vote of their own).
 */
export function delegateLines(powers: readonly PowerWithDelegate[]): DelegateLine[] {
  const lines: DelegateLine[] = [];
  for (const p of powers) {
    const d = p.delegate;
    if (!d) continue;
    if (p.hasVoted) lines.push({ kind: 'votedMyself', wallet: p.address, delegate: d.address });
    else if (d.hasVoted)
      lines.push({ kind: 'delegateVoted', wallet: p.address, delegate: d.address, choice: d.choice });
    else lines.push({ kind: 'delegateNotVoted', wallet: p.address, delegate: d.address });
  }
  for (const p of powers)
    if (p.delegatorCount > 0)
      lines.push({
        kind: 'asDelegate',
        wallet: p.address,
        count: p.delegatorCount,
        weight: p.delegatedWeight,
      });
  return lines;
}

export interface Participation {
  voted: number;
  /** the started proposals; null when it cannot be told from the rate (0 votes) or there are none */
  total: number | null;
  /** 0 to 100; null while there are no started proposals */
  percent: number | null;
}

/**
 * "Voted in 3 of 4 proposals (75 %)" from the list's proposalsVoted and participationRate: the number of
 * started proposals is proposalsVoted / rate, exact once rounded (both come from the same two counts).
 */
export function participation(proposalsVoted: number, rate: number | null): Participation {
  if (rate === null) return { voted: proposalsVoted, total: null, percent: null };
  const total = rate > 0 ? Math.round(proposalsVoted / rate) : null;
  return { voted: proposalsVoted, total, percent: rate * 100 };
}

/** the rules of a DAO that decide whether and how its members delegate here */
export interface DelegationRules {
  delegation: boolean;
  membership: 'members' | 'token-holders';
  token: { standard: 'erc20' | 'erc20-votes' } | null;
}

/** how the DAO delegates: off, inside the DAO, or the erc20-votes token's own delegation on the chain */
export function delegationMode(rules: DelegationRules): 'off' | 'on' | 'chain' {
  if (rules.token?.standard === 'erc20-votes') return 'chain';
  return rules.delegation ? 'on' : 'off';
}

/**
 * My wallets that may delegate with the session (the server has the last word, 403 NOT_A_MEMBER): in a
 * members DAO those on the member list, in a DAO open to holders any of them (a holding is read on the
 * chain when delegating).
 */
export function walletsThatMayDelegate(
  rules: Pick<DelegationRules, 'membership'>,
  members: readonly string[],
  wallets: readonly string[],
): string[] {
  if (rules.membership === 'token-holders') return [...wallets];
  return wallets.filter((w) => members.some((m) => sameAddress(m, w)));
}

/** a statement longer than this many characters or lines starts collapsed */
export const STATEMENT_PREVIEW = { chars: 600, lines: 8 };
export const isLongStatement = (s: string) =>
  s.length > STATEMENT_PREVIEW.chars || s.split('\n').length > STATEMENT_PREVIEW.lines;

/** the block explorers of the chains the app names (lib/governance/token.ts), for a token's page */
const EXPLORERS: Record<number, string> = {
  1: 'https://etherscan.io',
  10: 'https://optimistic.etherscan.io',
  56: 'https://bscscan.com',
  100: 'https://gnosisscan.io',
  137: 'https://polygonscan.com',
  8453: 'https://basescan.org',
  42161: 'https://arbiscan.io',
  11155111: 'https://sepolia.etherscan.io',
};

/** the token's page on its chain's explorer, where its own delegation is made; null for other chains */
export function tokenUrl(chainId: number, address: string): string | null {
  const base = EXPLORERS[chainId];
  return base ? `${base}/token/${address}` : null;
}
