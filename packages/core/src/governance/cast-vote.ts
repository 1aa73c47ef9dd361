import { type CastVoteInput, choiceIsOptionName, type IneligibleReason } from '@plenum/validators';
import { canonicalAddress } from '../auth/address';
import type { Principal } from '../auth/sessions';
import { assertOwnsAddress } from '../auth/wallets';
import type { Services } from '../services';
import { badRequest, forbidden, notFound, unauthorized } from '../shared/errors';
import { ineligibility, refusalOf, voterFacts } from './eligibility';
import { receiptOf } from './record/format';
import { requireDao, requireProposal } from './rows';
import { voteView } from './serialize';
import { verifyVoteSignature } from './signed-vote';
import { advanceProposal } from './status-automation';
import { storedChoice } from './system-tallies';
import { canonicalChoice, requireBallot, systemOptions, type VotingSystem } from './systems';
import { admitHolder } from './token-snapshot';

/**
 * POST /votes. Checks in the documented order (docs/governance.md, "Votes"): authentication or signature
 * (401) → eligibility (403) → state (409) → uniqueness (409, decided by the database in the batch). The
 * weight comes from the electorate frozen at voting start, never from the client. Resolves once the vote is
 * committed.
 */
export async function castVote(svc: Services, params: { principal: Principal | null; input: CastVoteInput }) {
  const { input, principal } = params;
  const rt = svc.governance;
  const now = svc.clock.now();
  let entry = await rt.proposal(input.proposalId);
  // an address spelled exactly as a frozen electorate's key is canonical already (those keys are EIP-55
  // from the database): that skips the checksum's keccak, ~6% of a session vote's CPU time on the server
  const spelled = input.voterAddress.trim();
  const voter = entry?.electorate?.has(spelled) ? spelled : canonicalAddress(spelled, 'voterAddress');
  const comment = input.comment ?? '';
  const signed = input.signature !== undefined;
  // the EIP-712 `choice`: a string as sent, an array or object as its canonical JSON (docs/governance.md)
  const signedText = typeof input.choice === 'string' ? input.choice : canonicalChoice(input.choice);

  if (signed) {
    if (input.timestamp === undefined)
      throw badRequest('A signed vote needs its timestamp', [
        { path: 'timestamp', message: 'required with signature' },
      ]);
    // the signature covers the fields exactly as sent, so the stored vote can be verified offline
    await verifyVoteSignature({
      message: {
        daoId: input.daoId,
        proposalId: input.proposalId,
        choice: signedText,
        comment,
        timestamp: input.timestamp,
      },
      signature: input.signature!,
      voterAddress: voter,
      now,
      maxAheadS: svc.config.governance.signatureMaxAheadS,
    });
  } else {
    if (input.timestamp !== undefined)
      throw badRequest('timestamp is only sent with a signature', [
        { path: 'timestamp', message: 'only with signature' },
      ]);
    if (!principal)
      throw unauthorized("Sign in, or sign the vote with the voter's wallet (EIP-712)", 'NOT_SIGNED_IN');
    if (svc.config.emailVerificationRequired && principal.status !== 'active')
      throw forbidden('Verify your email address first', 'EMAIL_NOT_VERIFIED');
    // ownership of voterAddress is checked in the batch with the other voter checks (no query per vote)
  }
  // on a refusal below, a session vote for someone else's address is told so first (auth before
  // eligibility); the reason comes from the one decision the voting power uses too (eligibility.ts), on
  // facts read in full only here, off the path of accepted votes
  const refuse = async (likely: IneligibleReason): Promise<never> => {
    if (!signed) await assertOwnsAddress(svc.db, principal!.userId, voter);
    // read again: the cached row's status may be older than a cancellation (the batch re-reads it too)
    const p = await requireProposal(svc.db, entry!.row.id);
    const [dao, facts] = await Promise.all([requireDao(svc.db, p.daoId), voterFacts(svc.db, p.daoId, voter)]);
    const holders = entry!.holders;
    let held = holders?.below.get(voter);
    if (holders && held === undefined && p.snapshotBlockNumber !== null && !entry!.electorate?.has(voter))
      held =
        (await svc.chain.weightsAt(holders.token, [voter], BigInt(p.snapshotBlockNumber))).get(voter) ?? 0n;
    const reason = ineligibility({
      now,
      proposal: p,
      dao: { status: dao.status, tokenWeighted: p.tokenWeighted, holdersOpen: holders !== null },
      ...facts,
      weight: entry!.electorate?.get(voter) ?? null,
      holder: holders && held !== undefined ? { weight: held, minWeight: holders.minWeight } : null,
    });
    throw refusalOf(reason ?? likely, voter);
  };

  if (!entry) throw notFound('Proposal not found');
  const p = entry.row;
  if (p.daoId !== input.daoId)
    throw badRequest("daoId is not the proposal's DAO", [
      { path: 'daoId', message: "must be the proposal's DAO" },
    ]);
  // the ballot in the proposal's system; option names trimmed for both kinds of vote, and a signed vote
  // keeps what it signed, see below (docs/governance.md, "Votes" and "Voting systems")
  const ballot = requireBallot(
    p.votingSystem,
    systemOptions(p.votingSystem, p.votingOptions),
    ballotValue(p.votingSystem, input.choice),
  );
  const stored = storedChoice(ballot);

  if (now < p.startTime) return refuse('NOT_STARTED');
  if (!entry.electorate) {
    // voting has started but nobody has frozen the electorate yet: do it now
    await advanceProposal(svc, p.id);
    entry = await rt.reload(p.id);
    if (!entry?.electorate) return refuse('NOT_STARTED');
  }
  let weight = entry.electorate.get(voter);
  const holders = entry.holders;
  if (weight === undefined && holders && now < p.endTime && !holders.below.has(voter)) {
    const admitted = await admitHolder(svc, entry.row, holders, voter);
    weight = admitted.weight ?? undefined;
    if (weight === undefined) rt.heldBelow(entry, voter, admitted.read);
  }
  if (weight === undefined) return refuse('NOT_A_MEMBER');
  rt.admit(entry, voter, weight);
  if (now >= p.endTime) return refuse('ENDED');

  const row = await rt.batcher.submit({
    proposalId: p.id,
    daoId: p.daoId,
    voterAddress: voter,
    choice: stored.choice,
    ballot: stored.ballot,
    parsed: ballot,
    weight,
    comment,
    signature: signed ? input.signature! : null,
    signedTimestamp: signed ? input.timestamp! : null,
    signedChoice: signed && signedText !== stored.choice ? signedText : null,
    createdAt: now,
    actingUserId: signed ? null : principal!.userId,
  });
  // the receipt: the ballot's leaf in the record, from the row as stored (docs/governance.md, "Receipts")
  return { ...voteView(row), receipt: await receiptOf(row) };
}

/**
 * The choice as the system reads it: the array and object systems also take the canonical JSON text a
 * signed vote signs (a string starting with [ or {), so a client may send exactly what it signed.
 */
function ballotValue(system: VotingSystem, choice: CastVoteInput['choice']): unknown {
  if (typeof choice !== 'string' || choiceIsOptionName(system)) return choice;
  const text = choice.trim();
  if (!text.startsWith('[') && !text.startsWith('{')) return choice;
  try {
    return JSON.parse(text);
  } catch {
    return choice; // not JSON: the system's check says what it wants
  }
}
