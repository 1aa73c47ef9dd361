import type { IneligibleReason } from '@plenum/validators';
import { formatUnits, parseUnits } from 'viem';
import { decimalSeparator, formatWeight } from './format';

/** Token DAOs (docs/governance.md, "Token holdings from the chain"): amounts and chain names. */

export type TokenStandard = 'erc20' | 'erc20-votes';

export interface TokenRef {
  chainId: number;
  address: string;
  standard: TokenStandard;
  symbol: string;
  decimals: number;
}

/**
 * the standards a DAO's token may have (@plenum/validators' TOKEN_STANDARD, kept here so pages need no
 * zod), in the order the DAO form offers them (their words are translated)
 */
export const STANDARDS: readonly TokenStandard[] = ['erc20', 'erc20-votes'];

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

export interface PowerView {
  weight: string;
  eligible: boolean;
  reason: PowerReason | null;
  hasVoted: boolean;
  snapshotBlock: { number: string } | null;
}
