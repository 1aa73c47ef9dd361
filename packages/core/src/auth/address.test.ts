import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors';
import { canonicalAddress, sameAddress } from './address';

const CHECKSUMMED = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('address canonicalization', () => {
  it('returns the EIP-55 form of lower- and upper-case input', () => {
    expect(canonicalAddress(CHECKSUMMED.toLowerCase())).toBe(CHECKSUMMED);
    expect(canonicalAddress(`0x${CHECKSUMMED.slice(2).toUpperCase()}`)).toBe(CHECKSUMMED);
    expect(canonicalAddress(` ${CHECKSUMMED} `)).toBe(CHECKSUMMED);
  });
  it('refuses malformed addresses and a wrong mixed-case checksum with a 400', () => {
    for (const bad of [
      '0x123',
      'hello',
      `${CHECKSUMMED}00`,
      '52908400098527886E0F7030069857D2E4169EE7',
      '0xZZ908400098527886E0F7030069857D2E4169EE7',
    ]) {
      expect(() => canonicalAddress(bad)).toThrow(AppError);
    }
    const wrongChecksum = '0x52908400098527886e0F7030069857D2E4169EE7';
    try {
      canonicalAddress(wrongChecksum);
      expect.unreachable();
    } catch (err) {
      expect((err as AppError).code).toBe('BAD_REQUEST');
    }
  });
  it('compares ignoring case', () => {
    expect(sameAddress(CHECKSUMMED, CHECKSUMMED.toLowerCase())).toBe(true);
  });
});
