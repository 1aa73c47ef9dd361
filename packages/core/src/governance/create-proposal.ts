import { daos, proposals } from '@plenum/db';
import type { CreateProposalInput } from '@plenum/validators';
import { eq } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import { assertOwnsAddress } from '../auth/wallets';
import type { Services } from '../services';
import { badRequest, conflict, forbidden, notFound } from '../shared/errors';
import { snapshotElectorate } from './electorate';
import { appendEvents } from './event-log';
import { notifyProposalOpened } from './notifications';
import { isMember } from './rows';
import { proposalSummaryView, ruleColumnsOf } from './serialize';
import { advanceProposal } from './status-automation';
import { systemOptions } from './systems';
import { tokenOf } from './token-snapshot';

const HOUR_MS = 3_600_000;
/** a voting delay longer than a year is almost certainly a mistake */
const MAX_START_DELAY_MS = 365 * 24 * HOUR_MS;

/**
 * POST /proposals. The creator acts through one of their wallets (403), must be a member (403) of an
 * ACTIVE DAO (409), and the duration must respect the DAO's minVotingPeriod (400). Without a startTime
 * voting opens at once and the electorate is frozen in the same transaction.
 */
export async function createProposal(svc: Services, params: { userId: string; input: CreateProposalInput }) {
  const { input } = params;
  const creator = canonicalAddress(input.creatorAddress, 'creatorAddress');
  await assertOwnsAddress(svc.db, params.userId, creator);
  const now = svc.clock.now();
  const startTime = input.startTime ? new Date(input.startTime) : now;
  if (input.startTime && startTime <= now)
    throw badRequest('startTime must be in the future', [
      { path: 'startTime', message: 'must be in the future' },
    ]);
  if (startTime.getTime() - now.getTime() > MAX_START_DELAY_MS)
    throw badRequest('startTime must be within a year', [
      { path: 'startTime', message: 'must be within a year' },
    ]);
  const endTime = new Date(startTime.getTime() + Math.round(input.votingDurationHours * HOUR_MS));

  const created = await svc.db.transaction(async (tx) => {
    // a share lock keeps the DAO's status from changing under the new proposal
    const [dao] = await tx.select().from(daos).where(eq(daos.id, input.daoId)).for('share');
    if (!dao) throw notFound('DAO not found');
    if (!(await isMember(tx, dao.id, creator)))
      throw forbidden(`${creator} is not a member of this DAO`, 'NOT_A_MEMBER');
    if (dao.status !== 'ACTIVE')
      throw conflict(`The DAO is ${dao.status}: it takes no new proposals`, 'DAO_NOT_ACTIVE');
    const minHours = Number(dao.minVotingPeriod);
    if (input.votingDurationHours < minHours) {
      throw badRequest(`votingDurationHours must be at least the DAO's minVotingPeriod (${minHours} h)`, [
        { path: 'votingDurationHours', message: `must be at least ${minHours} hours`, code: 'too_small' },
      ]);
    }
    const startsNow = startTime <= now;
    const [inserted] = await tx
      .insert(proposals)
      .values({
        daoId: dao.id,
        title: input.title,
        description: input.description,
        creatorAddress: creator,
        status: 'PENDING',
        startTime,
        endTime,
        proposalData: input.proposalData,
        // basic votes For, Against, Abstain exactly as spelled here (the input check allows any case)
        votingOptions: systemOptions(input.votingSystem, input.votingOptions),
        votingSystem: input.votingSystem,
        // the DAO's rules as they are now: later edits never reach this proposal
        ...ruleColumnsOf(dao),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    // a token DAO's electorate is read from the chain outside this transaction (status-automation.ts)
    const freezeNow = startsNow && !tokenOf(dao);
    const row = freezeNow ? await snapshotElectorate(tx, inserted!, inserted!.tokenWeighted, now) : inserted!;
    if (freezeNow) await notifyProposalOpened(svc, tx, row, dao);
    const view = { ...proposalSummaryView(row), votes: [], voteCount: 0 };
    await appendEvents(tx, {
      items: [{ type: 'proposal_submitted', daoId: dao.id, proposalId: row.id, data: view }],
      at: now,
    });
    return { view, startToken: startsNow && !freezeNow };
  });
  if (!created.startToken) return created.view;
  // voting opens now: the snapshot block is taken at once; if the chain does not answer the proposal stays
  // PENDING with snapshotError and the scheduler retries
  const after = await advanceProposal(svc, created.view.proposalId);
  return after ? { ...proposalSummaryView(after), votes: [], voteCount: 0 } : created.view;
}
