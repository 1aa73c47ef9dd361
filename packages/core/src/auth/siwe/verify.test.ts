import { createSiweMessage } from 'viem/siwe';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../shared/errors';
import { checkSiweMessage } from './verify';

const now = new Date('2026-06-01T12:00:00Z');
const opts = { appUrl: 'http://localhost:3000', chainIds: [1, 10], now };
const base = {
  address: '0x52908400098527886E0F7030069857D2E4169EE7' as const,
  chainId: 1,
  domain: 'localhost:3000',
  nonce: 'abcdefgh12345',
  uri: 'http://localhost:3000/login',
  version: '1' as const,
  issuedAt: new Date('2026-06-01T11:59:00Z'),
};
const reasonOf = (overrides: Partial<typeof base> & Record<string, unknown>) => {
  try {
    checkSiweMessage(createSiweMessage({ ...base, ...overrides }), opts);
    return 'ok';
  } catch (err) {
    return (err as AppError).reason;
  }
};

describe('SIWE message checks', () => {
  it('accepts a message bound to this app, an allowed chain and a current window', () => {
    expect(reasonOf({})).toBe('ok');
    expect(
      reasonOf({
        expirationTime: new Date('2026-06-01T12:05:00Z'),
        notBefore: new Date('2026-06-01T11:00:00Z'),
      }),
    ).toBe('ok');
  });
  it('names the failed check', () => {
    expect(reasonOf({ domain: 'evil.example' })).toBe('SIWE_DOMAIN_MISMATCH');
    expect(reasonOf({ uri: 'http://localhost:3001/login' })).toBe('SIWE_URI_MISMATCH');
    expect(reasonOf({ chainId: 137 })).toBe('SIWE_CHAIN_NOT_ALLOWED');
    expect(reasonOf({ expirationTime: new Date('2026-06-01T12:00:00Z') })).toBe('SIWE_EXPIRED');
    expect(reasonOf({ notBefore: new Date('2026-06-01T12:00:01Z') })).toBe('SIWE_NOT_YET_VALID');
  });
  it('refuses a version other than 1 and a mixed-case address with a wrong EIP-55 checksum (400)', () => {
    const good = createSiweMessage(base);
    const statusOf = (text: string) => {
      try {
        checkSiweMessage(text, opts);
        return 'ok';
      } catch (err) {
        return (err as AppError).code;
      }
    };
    expect(statusOf(good)).toBe('ok');
    expect(statusOf(good.replace('Version: 1', 'Version: 2'))).toBe('BAD_REQUEST');
    // one letter's case flipped: no longer the checksum
    expect(statusOf(good.replace('0x52908400098527886E0F', '0x52908400098527886e0F'))).toBe('BAD_REQUEST');
    // all lower case carries no checksum to check (EIP-55 applies to mixed case)
    expect(statusOf(good.replace(base.address, base.address.toLowerCase()))).toBe('ok');
  });
  it('refuses text that is not an EIP-4361 message with a 400', () => {
    try {
      checkSiweMessage('hello world', opts);
      expect.unreachable();
    } catch (err) {
      expect((err as AppError).code).toBe('BAD_REQUEST');
    }
  });
});
