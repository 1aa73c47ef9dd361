import { type Hex, hashTypedData, recoverTypedDataAddress } from 'viem';
import { sameAddress } from '../auth/address';
import { checkSignedTime } from '../governance/signed-vote';
import { VOTE_DOMAIN } from '../governance/vote-signer';
import { badRequest, unauthorized } from '../shared/errors';

/**
 * Signed comments (docs/discussion.md, "Signed comments"): a wallet posts without an account by signing
 * EIP-712 typed data in the domain and time window of signed votes. The body is signed as its exact text:
 * EIP-712 hashes a string field itself, so 10,000 characters cost nothing more, and the wallet shows the
 * words it signs rather than a hash nobody can read.
 */
export const COMMENT_TYPES = {
  Comment: [
    { name: 'proposalId', type: 'string' },
    { name: 'parentId', type: 'string' },
    { name: 'body', type: 'string' },
    { name: 'authorAddress', type: 'address' },
    { name: 'timestamp', type: 'uint64' },
  ],
} as const;

/** what `GET /eip712/comment` returns: the votes' domain, EIP712Domain for raw eth_signTypedData_v4 */
export const COMMENT_TYPED_DATA_SPEC = {
  domain: { ...VOTE_DOMAIN },
  primaryType: 'Comment' as const,
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
    ],
    Comment: COMMENT_TYPES.Comment.map((f) => ({ ...f })),
  },
};

/** the signed `Comment` message; `parentId` is "" for a top-level comment */
export interface CommentMessage {
  proposalId: string;
  parentId: string;
  body: string;
  authorAddress: string;
  /** Unix seconds */
  timestamp: number;
}

/** the full typed data of a stored signed comment, so anyone can verify it offline */
export function commentTypedDataOf(message: CommentMessage) {
  return { ...COMMENT_TYPED_DATA_SPEC, message };
}

const typed = (m: CommentMessage) => ({
  domain: VOTE_DOMAIN,
  types: COMMENT_TYPES,
  primaryType: 'Comment' as const,
  message: { ...m, authorAddress: m.authorAddress as Hex, timestamp: BigInt(m.timestamp) },
});

/** the signature fields of a post: all three or none (400), and none of them with `actorAddress` */
export function signedPart(input: {
  authorAddress?: string | undefined;
  signature?: string | undefined;
  timestamp?: number | undefined;
  actorAddress?: string | undefined;
}): { authorAddress: string; signature: string; timestamp: number } | null {
  const { authorAddress, signature, timestamp } = input;
  if (signature === undefined && timestamp === undefined && authorAddress === undefined) return null;
  const missing = (
    [
      ['signature', signature],
      ['timestamp', timestamp],
      ['authorAddress', authorAddress],
    ] as const
  ).filter(([, v]) => v === undefined);
  if (missing.length)
    throw badRequest(
      'A signed comment sends authorAddress, signature and timestamp together',
      missing.map(([path]) => ({ path, message: 'required for a signed comment' })),
      'VALIDATION_FAILED',
    );
  if (input.actorAddress !== undefined)
    throw badRequest(
      'A signed comment is written by authorAddress: actorAddress is for signed-in callers',
      [{ path: 'actorAddress', message: 'not with a signature' }],
      'VALIDATION_FAILED',
    );
  return { authorAddress: authorAddress!, signature: signature!, timestamp: timestamp! };
}

/**
 * Checks the time window (401 SIGNATURE_EXPIRED / SIGNATURE_FROM_FUTURE) and that `authorAddress` signed
 * exactly this message (401 INVALID_SIGNATURE); returns the message's EIP-712 digest, the key that lets a
 * signed message post once (a replay meets the unique digest, whatever encoding its signature has).
 */
export async function verifyCommentSignature(params: {
  message: CommentMessage;
  signature: string;
  now: Date;
  maxAheadS?: number | undefined;
}): Promise<string> {
  checkSignedTime(params.message.timestamp, params.now, params.maxAheadS);
  const data = typed(params.message);
  let signer: string;
  try {
    signer = await recoverTypedDataAddress({ ...data, signature: params.signature as Hex });
  } catch {
    throw unauthorized('The signature is malformed', 'INVALID_SIGNATURE');
  }
  if (!sameAddress(signer, params.message.authorAddress))
    throw unauthorized(
      'The signature was not made by authorAddress of exactly this comment',
      'INVALID_SIGNATURE',
    );
  return hashTypedData(data);
}
