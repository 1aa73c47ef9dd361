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
  NOT_A_MEMBER: 'Only members can submit proposals or vote: choose a wallet that is a member of this DAO.',
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
  // a vote's refusal carries the voting power's reason as its `detail` (docs/governance.md, "Voting power")
  NOT_STARTED: 'Voting on this proposal has not started yet.',
  ENDED: 'Voting on this proposal has ended.',
  JOINED_AFTER_START: 'This address joined the DAO after voting started, so it cannot vote on this proposal.',
  NO_WEIGHT: 'This address had no voting weight when voting started.',
  BELOW_MIN_WEIGHT: "This address held less than the DAO's minimum weight when voting started.",
  ACCOUNT_SUSPENDED: 'The account this address belongs to is suspended, so it cannot vote.',
  ACCOUNT_DELETED: 'The account this address belonged to is deleted, so it cannot vote.',
  STALE_SIGNATURE:
    'This signature is older than the vote it would replace (a signature sent again, or signed before that vote). Sign the change again in a moment, or vote while signed in.',
};

/** toDisplayError, with governance reasons replaced by their sentence. */
export function governanceError(err: unknown): DisplayError {
  const shown = toDisplayError(err);
  // the finer detail first (why NOT_ELIGIBLE), then the reason
  const sentence =
    (shown.detail ? SENTENCES[shown.detail] : undefined) ??
    (shown.reason ? SENTENCES[shown.reason] : undefined);
  return sentence ? { ...shown, message: sentence } : shown;
}

export const sentenceFor = (reason: string) => SENTENCES[reason];
