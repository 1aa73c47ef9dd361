import { getAddress } from 'viem';
import { badRequest } from '../shared/errors';

export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/**
 * The one canonical form of an EVM address (EIP-55 checksum). Any casing of valid hex is accepted
 * (comparisons ignore case); a mixed-case address with a wrong checksum is refused, as it is usually a typo.
 */
export function canonicalAddress(input: string, field = 'address'): string {
  const value = input.trim();
  if (!ADDRESS_PATTERN.test(value)) {
    throw badRequest(`${field} must be 0x followed by 40 hex characters`, [
      { path: field, message: 'must be 0x followed by 40 hex characters', code: 'invalid_address' },
    ]);
  }
  const lowerOrUpper =
    value.slice(2) === value.slice(2).toLowerCase() || value.slice(2) === value.slice(2).toUpperCase();
  // one checksum computation (a keccak) serves both the check and the result
  const canonical = getAddress(value.toLowerCase());
  if (!lowerOrUpper && value !== canonical) {
    throw badRequest(`${field} has an invalid EIP-55 checksum`, [
      { path: field, message: 'invalid EIP-55 checksum', code: 'invalid_checksum' },
    ]);
  }
  return canonical;
}

export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
