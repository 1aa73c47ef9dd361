import { type DisplayError, toDisplayError } from '../errors';

/** The API's stable reason codes (docs/api.md, "Errors") as sentences a member can act on. */
const SENTENCES: Record<string, string> = {
  NOT_ELIGIBLE:
    'This address cannot vote on this proposal: only addresses that were members when voting started (and still are) can vote.',
  PROPOSAL_NOT_ACTIVE: 'Voting is not open on this proposal: it has not started yet or it has ended.',
  ALREADY_VOTED: 'This address has already voted on this proposal, and votes in this DAO cannot be changed.',
  DAO_NOT_ACTIVE: 'This DAO is not active: it takes no new members, proposals or votes.',
  DAO_PENDING_APPROVAL: 'This DAO is waiting for an administrator to approve it.',
  DAO_NOT_PENDING: 'This DAO is not waiting for approval.',
  NOT_A_MEMBER: 'Only members can submit proposals: choose a wallet that is a member of this DAO.',
  NOT_OWNER: 'Only the owner of this DAO (or an administrator) can do this.',
  NOT_YOUR_ADDRESS: 'That address is not one of your linked wallets.',
  ALREADY_MEMBER: 'That address is already a member of this DAO.',
  OWNER_IS_MEMBER: 'The owner cannot be removed from the DAO.',
  NOT_TOKEN_WEIGHTED: 'Token balances only count in token-weighted DAOs.',
  TOKEN_NOT_FOUND:
    'No token of that standard answers at this address on this chain: check the chain id, the address and the standard.',
  CHAIN_NOT_CONFIGURED: 'Plenum cannot read this chain: no RPC is configured for this chain id.',
  CHAIN_UNAVAILABLE: "The chain's RPC does not answer right now. Try again in a moment.",
  BALANCES_FROM_CHAIN: "This DAO's weights are read from its token on the chain; they cannot be set here.",
  EMAIL_NOT_VERIFIED: 'Verify your email address first: governance actions need a verified account.',
  NOT_SIGNED_IN: 'Sign in, or sign the vote with your wallet.',
  SESSION_REQUIRED: 'Sign in first.',
  SIGNATURE_EXPIRED: 'The signature is more than 10 minutes old. Sign the vote again.',
  SIGNATURE_FROM_FUTURE: "The signature's time is ahead of the server's: check your computer's clock.",
  INVALID_SIGNATURE: "The signature was not made by the voter's address. Sign with that wallet.",
};

/** toDisplayError, with governance reasons replaced by their sentence. */
export function governanceError(err: unknown): DisplayError {
  const shown = toDisplayError(err);
  const sentence = shown.reason ? SENTENCES[shown.reason] : undefined;
  return sentence ? { ...shown, message: sentence } : shown;
}

export const sentenceFor = (reason: string) => SENTENCES[reason];
