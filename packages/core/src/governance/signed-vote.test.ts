import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors';
import { VOTE_DOMAIN, VOTE_TYPES, type VoteMessage, verifyVoteSignature } from './signed-vote';

const account = privateKeyToAccount(generatePrivateKey());
const now = new Date('2030-01-01T00:00:00Z');
const nowS = now.getTime() / 1000;
const message: VoteMessage = { daoId: 'd', proposalId: 'p', choice: 'For', comment: '', timestamp: nowS };

const sign = (m: VoteMessage) =>
  account.signTypedData({
    domain: VOTE_DOMAIN,
    types: VOTE_TYPES,
    primaryType: 'Vote',
    message: { ...m, timestamp: BigInt(m.timestamp) },
  });

async function reasonOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('UNAUTHORIZED');
    return (err as AppError).reason;
  }
}

describe('verifyVoteSignature', () => {
  it('accepts the voter’s signature within the time window', async () => {
    for (const ts of [nowS, nowS - 600, nowS + 300]) {
      const m = { ...message, timestamp: ts };
      await expect(
        verifyVoteSignature({ message: m, signature: await sign(m), voterAddress: account.address, now }),
      ).resolves.toBeUndefined();
    }
  });

  it('refuses stale, future, tampered, foreign and malformed signatures', async () => {
    const stale = { ...message, timestamp: nowS - 601 };
    expect(
      await reasonOf(
        verifyVoteSignature({
          message: stale,
          signature: await sign(stale),
          voterAddress: account.address,
          now,
        }),
      ),
    ).toBe('SIGNATURE_EXPIRED');
    const ahead = { ...message, timestamp: nowS + 301 };
    expect(
      await reasonOf(
        verifyVoteSignature({
          message: ahead,
          signature: await sign(ahead),
          voterAddress: account.address,
          now,
        }),
      ),
    ).toBe('SIGNATURE_FROM_FUTURE');
    const signature = await sign(message);
    expect(
      await reasonOf(
        verifyVoteSignature({
          message: { ...message, choice: 'Against' },
          signature,
          voterAddress: account.address,
          now,
        }),
      ),
    ).toBe('INVALID_SIGNATURE');
    const other = privateKeyToAccount(generatePrivateKey());
    expect(
      await reasonOf(verifyVoteSignature({ message, signature, voterAddress: other.address, now })),
    ).toBe('INVALID_SIGNATURE');
    expect(
      await reasonOf(
        verifyVoteSignature({ message, signature: '0x1234', voterAddress: account.address, now }),
      ),
    ).toBe('INVALID_SIGNATURE');
  });
});
