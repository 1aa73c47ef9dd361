import { createRequire } from 'node:module';
import { bytesToHex, hashTypedData, recoverTypedDataAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors';
import { VOTE_DOMAIN, VOTE_TYPES, type VoteMessage, verifyVoteSignature } from './signed-vote';
import { recoverVoteSigner, voteDigest } from './vote-signer';

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

  it('narrows the time allowed ahead to VOTE_SIGNATURE_MAX_AHEAD_S when it is set', async () => {
    const check = async (ts: number) => {
      const m = { ...message, timestamp: ts };
      const signature = await sign(m);
      return reasonOf(
        verifyVoteSignature({ message: m, signature, voterAddress: account.address, now, maxAheadS: 30 }),
      );
    };
    expect(await check(nowS + 30)).toBeUndefined();
    expect(await check(nowS + 31)).toBe('SIGNATURE_FROM_FUTURE');
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

describe('fast signer recovery (vote-signer.ts) agrees with viem', () => {
  const messages: VoteMessage[] = [
    message,
    {
      daoId: crypto.randomUUID(),
      proposalId: crypto.randomUUID(),
      choice: 'Against',
      comment: 'é ✓ 🗳',
      timestamp: 0,
    },
    { daoId: '', proposalId: '', choice: '', comment: 'x'.repeat(2_000), timestamp: 2 ** 53 - 1 },
  ];

  it('builds the same EIP-712 digest', () => {
    for (const m of messages) {
      const expected = hashTypedData({
        domain: VOTE_DOMAIN,
        types: VOTE_TYPES,
        primaryType: 'Vote',
        message: { ...m, timestamp: BigInt(m.timestamp) },
      });
      expect(bytesToHex(voteDigest(m))).toBe(expected);
    }
  });

  it('uses the native binding on Linux x64', () => {
    // the package's public entry is its native build there, not the pure-JS fallback (internals.test.ts)
    const require = createRequire(import.meta.url);
    if (process.platform === 'linux' && process.arch === 'x64')
      expect(require('secp256k1')).toBe(require('secp256k1/bindings'));
  });

  it('recovers the same signer for v as 27/28 and as 0/1, for many keys', async () => {
    for (let i = 0; i < 20; i++) {
      const key = privateKeyToAccount(generatePrivateKey());
      const m = messages[i % messages.length]!;
      const sig = await key.signTypedData({
        domain: VOTE_DOMAIN,
        types: VOTE_TYPES,
        primaryType: 'Vote',
        message: { ...m, timestamp: BigInt(m.timestamp) },
      });
      expect(await recoverVoteSigner(m, sig)).toBe(key.address.toLowerCase());
      const v = Number.parseInt(sig.slice(130), 16);
      const yParity = `${sig.slice(0, 130)}0${v - 27}`;
      expect(await recoverVoteSigner(m, yParity)).toBe(key.address.toLowerCase());
    }
  });

  it('answers like viem for a malleated (high-s) signature and for out-of-range values', async () => {
    const sig = await sign(message);
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const s = BigInt(`0x${sig.slice(66, 130)}`);
    const v = Number.parseInt(sig.slice(130), 16);
    const high = `${sig.slice(0, 66)}${(n - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`;
    const outOfRange = `${sig.slice(0, 66)}${'f'.repeat(64)}${sig.slice(130)}`;
    for (const candidate of [high, outOfRange]) {
      const viem = await recoverTypedDataAddress({
        domain: VOTE_DOMAIN,
        types: VOTE_TYPES,
        primaryType: 'Vote',
        message: { ...message, timestamp: BigInt(message.timestamp) },
        signature: candidate as `0x${string}`,
      }).then(
        (a) => a.toLowerCase(),
        () => 'refused',
      );
      const ours = await recoverVoteSigner(message, candidate).catch(() => 'refused');
      expect(ours).toBe(viem);
    }
  });
});
