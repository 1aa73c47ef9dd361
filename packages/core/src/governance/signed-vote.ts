import { VOTING_SYSTEM_TRAITS } from '@plenum/validators';
import { unauthorized } from '../shared/errors';
import { canonicalChoice, systemOf, VOTING_SYSTEMS } from './systems';
import type { VoteMessage } from './vote-signer';
import { recoverVoteSigner, VOTE_DOMAIN, VOTE_TYPES } from './vote-signer';

export { VOTE_DOMAIN, VOTE_TYPES };

export interface TypedDataSpec {
  domain: { name: string; version: string };
  primaryType: 'Vote';
  types: Record<string, { name: string; type: string }[]>;
}

/** what `GET /eip712/vote` returns; EIP712Domain is included for raw eth_signTypedData_v4 callers */
export const VOTE_TYPED_DATA_SPEC: TypedDataSpec = {
  domain: { ...VOTE_DOMAIN },
  primaryType: 'Vote',
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
    ],
    Vote: VOTE_TYPES.Vote.map((f) => ({ ...f })),
  },
};

/**
 * What `GET /eip712/vote` returns: the typed data, and the `choice` to sign per voting system (each
 * system's example ballot), computed with the same canonical encoding the server verifies with
 * (docs/governance.md, "Voting systems").
 */
export const VOTE_SIGNING_GUIDE = {
  ...VOTE_TYPED_DATA_SPEC,
  choiceEncoding: choiceEncoding(),
  examples: VOTING_SYSTEMS.map((votingSystem) => {
    const { example } = systemOf(votingSystem);
    return { votingSystem, choice: structuredClone(example), signedChoice: canonicalChoice(example) };
  }),
};

/** the encoding in words: option names as they are, arrays and objects as canonical JSON */
function choiceEncoding() {
  const sent = { single: 'name', approval: 'array', ranked: 'array', points: 'object' } as const;
  const by = (kind: 'name' | 'array' | 'object') =>
    VOTING_SYSTEMS.filter((s) => sent[VOTING_SYSTEM_TRAITS[s].ballot] === kind).join(', ');
  return (
    `${by('name')}: the option name. ${by('array')} (arrays) and ${by('object')} (objects): the ballot ` +
    'as RFC 8785 canonical JSON (JCS: members sorted by name, no whitespace, numbers as ECMAScript ' +
    'writes them). POST /votes then takes the same array or object as `choice` (or the signed text itself).'
  );
}

/** the signed message of a vote: one shape, defined beside the digest that signs it */
export type { VoteMessage };

/** the full typed data of a stored signed vote, so anyone can verify it offline */
export function typedDataOf(message: VoteMessage) {
  return { ...VOTE_TYPED_DATA_SPEC, message };
}

/**
 * A signature is accepted from 10 minutes in the past to 5 minutes ahead (clock skew;
 * VOTE_SIGNATURE_MAX_AHEAD_S may narrow it). A timestamp ahead cannot undo a later change: a voter's votes
 * are ordered (docs/governance.md, "Changing a vote").
 */
export const SIGNATURE_MAX_AGE_S = 600;
export const SIGNATURE_MAX_AHEAD_S = 300;

/**
 * The time window of every signed message (votes, delegations): 401 SIGNATURE_EXPIRED or
 * SIGNATURE_FROM_FUTURE outside it.
 */
export function checkSignedTime(ts: number, now: Date, maxAheadS?: number): void {
  const nowS = Math.floor(now.getTime() / 1000);
  const ahead = maxAheadS ?? SIGNATURE_MAX_AHEAD_S;
  if (ts < nowS - SIGNATURE_MAX_AGE_S)
    throw unauthorized('The signed timestamp is more than 10 minutes old', 'SIGNATURE_EXPIRED');
  if (ts > nowS + ahead)
    throw unauthorized(
      `The signed timestamp is more than ${ahead} seconds ahead of the server's clock`,
      'SIGNATURE_FROM_FUTURE',
    );
}

/**
 * Checks the timestamp window and that `voterAddress` signed exactly this message; 401 otherwise.
 * Replays inside the window are stopped by the one-vote-per-voter rule and, where votes may change, by
 * the order of a voter's votes (vote-commit.ts), not here.
 */
export async function verifyVoteSignature(params: {
  message: VoteMessage;
  signature: string;
  voterAddress: string;
  now: Date;
  maxAheadS?: number;
}): Promise<void> {
  checkSignedTime(params.message.timestamp, params.now, params.maxAheadS);
  let signer: string;
  try {
    signer = await recoverVoteSigner(params.message, params.signature);
  } catch {
    throw unauthorized('The signature is malformed', 'INVALID_SIGNATURE');
  }
  if (signer.toLowerCase() !== params.voterAddress.toLowerCase())
    throw unauthorized('The signature was not made by voterAddress', 'INVALID_SIGNATURE');
}
