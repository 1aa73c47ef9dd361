import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { VOTE_DOMAIN } from '../governance/vote-signer';
import { AppError } from '../shared/errors';
import { COMMENT_TYPES, type CommentMessage, signedPart, verifyCommentSignature } from './signed-comment';

const account = privateKeyToAccount(generatePrivateKey());
const now = new Date('2030-01-01T00:00:00Z');
const nowS = now.getTime() / 1000;
const message: CommentMessage = {
  proposalId: '7d9f3c2e-0b1a-4c5d-8e6f-0a1b2c3d4e5f',
  parentId: '',
  body: 'A **long** comment, signed as its text. '.repeat(250),
  authorAddress: account.address,
  timestamp: nowS,
};
const sign = (m: CommentMessage) =>
  account.signTypedData({
    domain: VOTE_DOMAIN,
    types: COMMENT_TYPES,
    primaryType: 'Comment',
    message: { ...m, authorAddress: m.authorAddress as `0x${string}`, timestamp: BigInt(m.timestamp) },
  });

async function reasonOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).reason;
  }
}

describe('verifyCommentSignature', () => {
  it('accepts the author’s signature of a 10,000-character body and gives one digest per message', async () => {
    const signature = await sign(message);
    const digest = await verifyCommentSignature({ message, signature, now });
    expect(digest).toMatch(/^0x[0-9a-f]{64}$/);
    // v written as 0/1: another signature string, the same message, the same digest
    const v = Number.parseInt(signature.slice(-2), 16) - 27;
    const other = `${signature.slice(0, -2)}0${v}`;
    expect(await verifyCommentSignature({ message, signature: other, now })).toBe(digest);
    // the address in any letter case is the same author
    const lower = { ...message, authorAddress: message.authorAddress.toLowerCase() };
    expect(await verifyCommentSignature({ message: lower, signature, now })).toBe(digest);
  });

  it('refuses another body, parent, signer or time, and a window miss', async () => {
    const signature = await sign(message);
    for (const m of [
      { ...message, body: `${message.body} ` },
      { ...message, parentId: message.proposalId },
      { ...message, timestamp: nowS - 1 },
      { ...message, authorAddress: privateKeyToAccount(generatePrivateKey()).address },
    ])
      expect(await reasonOf(verifyCommentSignature({ message: m, signature, now }))).toBe(
        'INVALID_SIGNATURE',
      );
    expect(await reasonOf(verifyCommentSignature({ message, signature: '0x12', now }))).toBe(
      'INVALID_SIGNATURE',
    );
    const old = { ...message, timestamp: nowS - 601 };
    expect(await reasonOf(verifyCommentSignature({ message: old, signature: await sign(old), now }))).toBe(
      'SIGNATURE_EXPIRED',
    );
    const ahead = { ...message, timestamp: nowS + 301 };
    expect(
      await reasonOf(verifyCommentSignature({ message: ahead, signature: await sign(ahead), now })),
    ).toBe('SIGNATURE_FROM_FUTURE');
  });
});

describe('signedPart', () => {
  it('none of the fields: a session post; all three: signed; anything between: 400', () => {
    expect(signedPart({})).toBeNull();
    const all = { authorAddress: account.address, signature: '0x12', timestamp: 1 };
    expect(signedPart(all)).toEqual(all);
    for (const half of [
      { signature: '0x12' },
      { timestamp: 1 },
      { authorAddress: account.address },
      { ...all, signature: undefined },
      { ...all, actorAddress: account.address },
    ])
      expect(() => signedPart(half)).toThrow(expect.objectContaining({ reason: 'VALIDATION_FAILED' }));
  });
});
