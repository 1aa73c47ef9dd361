import { type DbOrTx, proposalComments } from '@plenum/db';
import { MAX_COMMENT_DEPTH } from '@plenum/validators';
import { eq } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import type { Principal } from '../auth/sessions';
import { appendEvents } from '../governance/event-log';
import { requireDao, requireProposal } from '../governance/rows';
import type { Services } from '../services';
import { badRequest, conflict, unauthorized } from '../shared/errors';
import { signedPart, verifyCommentSignature } from './signed-comment';
import { commentView } from './view';
import { assertMayComment, commentingAddress } from './who-may-comment';
import { findComment } from './write-comment';

/**
 * POST /proposals/{proposalId}/comments (docs/discussion.md, "Writing"): the caller acts through a wallet
 * that may write in the DAO (403), within their rate limit (429); a reply's parent must be a comment of
 * the same proposal (400) no deeper than one reply (400 REPLY_TOO_DEEP). A signed comment needs no
 * session: its wallet's signature (401) stands for the caller, and it posts once (409
 * COMMENT_ALREADY_POSTED; "Signed comments"). Emits `comment_posted`.
 */
export async function postComment(
  svc: Services,
  params: {
    principal: Principal | null;
    proposalId: string;
    body: string;
    parentId?: string | undefined;
    actorAddress?: string | undefined;
    authorAddress?: string | undefined;
    signature?: string | undefined;
    timestamp?: number | undefined;
  },
) {
  const signed = signedPart(params);
  const proof = signed ? await verified(svc, params, signed) : null;
  if (!proof && !params.principal)
    throw unauthorized('Sign in, or sign the comment with your wallet (EIP-712)', 'NOT_SIGNED_IN');
  const proposal = await requireProposal(svc.db, params.proposalId);
  const dao = await requireDao(svc.db, proposal.daoId);
  let depth = 0;
  if (params.parentId !== undefined) {
    const parent = await findComment(svc.db, params.parentId);
    if (!parent || parent.proposalId !== proposal.id)
      throw badRequest(
        'parentId is not a comment of this proposal',
        [{ path: 'parentId', message: 'must be a comment of the same proposal' }],
        'PARENT_NOT_IN_PROPOSAL',
      );
    if (parent.depth >= MAX_COMMENT_DEPTH)
      throw badRequest(
        `Replies nest ${MAX_COMMENT_DEPTH} levels at most: reply to the comment this one answers instead`,
        [{ path: 'parentId', message: 'is a reply to a reply: it takes no replies' }],
        'REPLY_TOO_DEEP',
      );
    depth = parent.depth + 1;
  }
  let author: string;
  if (proof) {
    author = proof.author;
    await assertMayComment(svc, { dao, proposal, address: author });
    // a replay of a stored signed comment is refused before it spends its author's budget
    if (await digestTaken(svc.db, proof.digest)) throw alreadyPosted();
    await svc.commentWrites.spend(author);
  } else {
    author = await commentingAddress(svc, {
      userId: params.principal!.userId,
      dao,
      proposal,
      actorAddress: params.actorAddress,
    });
    await svc.commentWrites.spend(params.principal!.userId);
  }
  return svc.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(proposalComments)
      .values({
        proposalId: proposal.id,
        daoId: proposal.daoId,
        parentId: params.parentId ?? null,
        depth,
        authorUserId: proof ? null : params.principal!.userId,
        authorAddress: author,
        body: params.body,
        signature: proof?.signature ?? null,
        signedTimestamp: proof?.timestamp ?? null,
        signedDigest: proof?.digest ?? null,
      })
      // concurrent sends of one signed message: the unique digest lets exactly one in
      .onConflictDoNothing({ target: proposalComments.signedDigest })
      .returning();
    if (!row) throw alreadyPosted();
    const view = commentView(row, { moderator: false, replyCount: 0 });
    await appendEvents(tx, {
      items: [
        { type: 'comment_posted', daoId: proposal.daoId, proposalId: proposal.id, data: { comment: view } },
      ],
    });
    return view;
  });
}

/** a signed comment's checks before any read: the signer and the window (401), its digest and author */
async function verified(
  svc: Services,
  params: { proposalId: string; parentId?: string | undefined; body: string },
  signed: { authorAddress: string; signature: string; timestamp: number },
) {
  const author = canonicalAddress(signed.authorAddress, 'authorAddress');
  const digest = await verifyCommentSignature({
    // ids as the API returns them (lower case), so the stored typed data verifies as it was signed
    message: {
      proposalId: params.proposalId.toLowerCase(),
      parentId: params.parentId?.toLowerCase() ?? '',
      body: params.body,
      authorAddress: author,
      timestamp: signed.timestamp,
    },
    signature: signed.signature,
    now: svc.clock.now(),
    maxAheadS: svc.config.governance.signatureMaxAheadS,
  });
  return { author, digest, signature: signed.signature, timestamp: signed.timestamp };
}

async function digestTaken(db: DbOrTx, digest: string) {
  const [row] = await db
    .select({ id: proposalComments.id })
    .from(proposalComments)
    .where(eq(proposalComments.signedDigest, digest))
    .limit(1);
  return Boolean(row);
}

const alreadyPosted = () =>
  conflict('This signed comment was posted already: sign a new one to post again', 'COMMENT_ALREADY_POSTED');
