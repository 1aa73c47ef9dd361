import type { IneligibleReason } from '@plenum/validators';
import { formatUnits, parseUnits } from 'viem';
import { decimalSeparator, formatWeight } from './format';

/** Token DAOs (docs/governance.md, "Token holdings from the chain"): amounts, names and reasons in words. */

export type TokenStandard = 'erc20' | 'erc20-votes';

export interface TokenRef {
  chainId: number;
  address: string;
  standard: TokenStandard;
  symbol: string;
  decimals: number;
}

export const STANDARDS: { value: TokenStandard; label: string; hint: string }[] = [
  { value: 'erc20', label: 'ERC-20 balance', hint: 'weight = the token balance at the snapshot block' },
  {
    value: 'erc20-votes',
    label: 'ERC-20 Votes (delegated votes)',
    hint: 'weight = the votes delegated to the holder at the snapshot block',
  },
];

export const standardLabel = (standard: TokenStandard) =>
  STANDARDS.find((s) => s.value === standard)?.label ?? standard;

const CHAINS: Record<number, string> = {
  1: 'Ethereum',
  10: 'OP Mainnet',
  56: 'BNB Smart Chain',
  100: 'Gnosis',
  137: 'Polygon',
  8453: 'Base',
  42161: 'Arbitrum One',
  11155111: 'Sepolia',
  31337: 'Local (anvil)',
};

/** a known chain's name ("Ethereum"), else undefined */
export const chainName = (chainId: number): string | undefined => CHAINS[chainId];

/**
 * Base units (an exact integer string) as whole tokens: digits grouped, at most `maxFraction` decimal
 * places (truncated, trailing zeros dropped), "< 0.0001" for a dust amount above 0, the symbol after.
 * "100000000000000000000", 18, "GRDN" → "100 GRDN". A string that is not an integer is shown as given.
 */
export function formatTokenAmount(
  baseUnits: string,
  decimals: number,
  symbol?: string,
  maxFraction = 4,
  locale = 'en',
): string {
  const suffix = symbol ? ` ${symbol}` : '';
  if (!/^\d+$/.test(baseUnits)) return `${baseUnits}${suffix}`;
  const [whole = '0', fraction = ''] = formatUnits(BigInt(baseUnits), decimals).split('.');
  const shown = fraction.slice(0, maxFraction).replace(/0+$/, '');
  const point = decimalSeparator(locale);
  if (whole === '0' && !shown && BigInt(baseUnits) > 0n)
    return `< ${(10 ** -maxFraction).toFixed(maxFraction).replace('.', point)}${suffix}`;
  return `${formatWeight(whole, locale)}${shown ? `${point}${shown}` : ''}${suffix}`;
}

/** A weight in words: with the DAO's token its decimals and symbol, else the plain (grouped) number. */
export const formatTokenWeight = (
  weight: string,
  token: Pick<TokenRef, 'decimals' | 'symbol'> | null,
  locale = 'en',
) =>
  token ? formatTokenAmount(weight, token.decimals, token.symbol, 4, locale) : formatWeight(weight, locale);

/**
 * Whole tokens as typed ("1.5", "1,000") → base units with the token's decimals (viem's parseUnits).
 * Empty → undefined; anything else that is not a non-negative decimal, or has more places than the token,
 * is an error in words.
 */
export function toBaseUnits(
  text: string | undefined,
  decimals: number,
): { ok: true; value: string | undefined } | { ok: false; message: string; problem: 'format' | 'places' } {
  const t = (text ?? '').trim().replace(/[,_\s]/g, '');
  if (t === '') return { ok: true, value: undefined };
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(t))
    return { ok: false, message: 'must be a number of tokens, like 10 or 2.5', problem: 'format' };
  const places = t.split('.')[1]?.length ?? 0;
  if (places > decimals)
    return {
      ok: false,
      problem: 'places',
      message: `this token has ${decimals} decimal${decimals === 1 ? '' : 's'}: use at most ${decimals} place${decimals === 1 ? '' : 's'}`,
    };
  return { ok: true, value: parseUnits(t, decimals).toString() };
}

/** the API's reasons (governance.votes.power), one list in @plenum/validators */
export type PowerReason = IneligibleReason;

/** Why an address cannot vote (governance.votes.power's reason), as a sentence. */
export function powerReasonText(
  reason: PowerReason,
  token: Pick<TokenRef, 'standard' | 'symbol'> | null,
  minWeight?: string | null,
): string {
  switch (reason) {
    case 'NOT_STARTED':
      return 'Voting has not started yet.';
    case 'ENDED':
      return 'Voting has ended.';
    case 'NOT_A_MEMBER':
      return 'This address is not a member of the DAO.';
    case 'JOINED_AFTER_START':
      return 'This address joined the DAO after voting started, so it cannot vote on this proposal.';
    case 'NO_WEIGHT':
      if (!token) return 'This address has no voting weight on this proposal.';
      return token.standard === 'erc20-votes'
        ? `This address had no ${token.symbol} votes delegated to it at the snapshot block (delegate your tokens, to yourself too, before a proposal starts).`
        : `This address held no ${token.symbol} at the snapshot block.`;
    case 'BELOW_MIN_WEIGHT':
      return minWeight
        ? `This address held less than the minimum of ${minWeight} at the snapshot block.`
        : `This address held less than the DAO's minimum${token ? ` of ${token.symbol}` : ''} at the snapshot block.`;
    case 'DAO_NOT_ACTIVE':
      return 'This DAO is not active: it takes no votes.';
    case 'ACCOUNT_SUSPENDED':
      return 'The account this address belongs to is suspended, so it cannot vote.';
    case 'ACCOUNT_DELETED':
      return 'The account this address belonged to is deleted, so it cannot vote.';
  }
}

export interface PowerView {
  weight: string;
  eligible: boolean;
  reason: PowerReason | null;
  hasVoted: boolean;
  snapshotBlock: { number: string } | null;
}

/**
 * governance.votes.power in a sentence: "Your voting power: 100 GRDN at block 42" when the address may
 * vote (the token's decimals and symbol; a DAO without a token shows the plain weight), else the reason.
 */
export function votingPowerText(
  p: PowerView,
  token: Pick<TokenRef, 'standard' | 'symbol' | 'decimals'> | null,
  minWeight?: string | null,
): string {
  if (!p.eligible && p.reason) {
    const min = token && minWeight ? formatTokenAmount(minWeight, token.decimals, token.symbol) : null;
    return powerReasonText(p.reason, token, min);
  }
  const amount = token
    ? formatTokenAmount(p.weight, token.decimals, token.symbol)
    : `weight ${formatWeight(p.weight)}`;
  const block = p.snapshotBlock ? ` at block ${p.snapshotBlock.number}` : '';
  return `Your voting power: ${amount}${block}${p.hasVoted ? ' (you have voted)' : ''}`;
}
