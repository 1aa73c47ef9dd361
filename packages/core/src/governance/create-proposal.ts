import { daos, proposals } from '@plenum/db';
import type { CreateProposalInput } from '@plenum/validators';
import { and, count, eq, gt, or, sql } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import { assertOwnsAddress } from '../auth/wallets';
import type { Services } from '../services';
import { badRequest, conflict, notFound } from '../shared/errors';
import { proposeRefusal, proposeRefusalError, proposerWeight } from './dao-permissions';
import { snapshotElectorate } from './electorate';
import { appendEvents } from './event-log';
import { notifyProposalOpened } from './notifications';
import { requireDao } from './rows';
import { proposalSummaryView, ruleColumnsOf } from './serialize';
import { advanceProposal } from './status-automation';
import { systemOptions } from './systems';
import { tokenOf } from './token-snapshot';

const HOUR_MS = 3_600_000;
/** a voting delay longer than a year is almost certainly a mistake */
const MAX_START_DELAY_MS = 365 * 24 * HOUR_MS;

/**
 * When a proposal's voting runs, checked alike at creation and at an edit (docs/governance.md, "Proposals"):
 * a given startTime in the future and within a year (400); without one voting opens now.
 */
export function proposalWindow(
  now: Date,
  input: { startTime?: string | undefined; votingDurationHours: number },
) {
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
  return { startTime, endTime };
}

/** the duration against the rules' minVotingPeriod (hours, as stored): 400 when shorter */
export function assertMinVotingPeriod(votingDurationHours: number, minVotingPeriod: string) {
  const minHours = Number(minVotingPeriod);
  if (votingDurationHours < minHours) {
    throw badRequest(`votingDurationHours must be at least the DAO's minVotingPeriod (${minHours} h)`, [
      { path: 'votingDurationHours', message: `must be at least ${minHours} hours`, code: 'too_small' },
    ]);
  }
}

/**
 * POST /proposals. The creator acts through one of their wallets (403), must be allowed to propose by the
 * DAO's rule votingRules.proposers (403, dao-permissions.ts) in an ACTIVE DAO (409), within the DAO's
 * maxActiveProposalsPerAuthor (409), and the duration must respect the DAO's minVotingPeriod (400).
 * Without a startTime voting opens at once and the electorate is frozen in the same transaction.
 */
export async function createProposal(svc: Services, params: { userId: string; input: CreateProposalInput }) {
  const { input } = params;
  const creator = canonicalAddress(input.creatorAddress, 'creatorAddress');
  await assertOwnsAddress(svc.db, params.userId, creator);
  const now = svc.clock.now();
  const { startTime, endTime } = proposalWindow(now, input);
  // proposers holders: the creator's weight is read from the chain before the transaction (no lock
  // waits on RPC); should the rule become holders in between, the read is made and the check done again
  for (let attempt = 0; ; attempt++) {
    const weight = await proposerWeight(svc, await requireDao(svc.db, input.daoId), creator);
    const created = await insertProposal(svc, { input, creator, now, startTime, endTime, weight });
    if (created !== RULES_CHANGED) return created;
    if (attempt === 2) throw conflict("The DAO's rules changed while the proposal was checked: try again");
  }
}

const RULES_CHANGED = Symbol('rules changed');

async function insertProposal(
  svc: Services,
  params: {
    input: CreateProposalInput;
    creator: string;
    now: Date;
    startTime: Date;
    endTime: Date;
    weight: bigint | null;
  },
) {
  const { input, creator, now, startTime, endTime } = params;
  const created = await svc.db.transaction(async (tx) => {
    // a share lock keeps the DAO's status from changing under the new proposal
    const [dao] = await tx.select().from(daos).where(eq(daos.id, input.daoId)).for('share');
    if (!dao) throw notFound('DAO not found');
    if (dao.proposers === 'holders' && params.weight === null) return RULES_CHANGED;
    const refusal = await proposeRefusal(tx, dao, creator, params.weight);
    if (refusal) throw proposeRefusalError(refusal, creator, dao);
    assertMinVotingPeriod(input.votingDurationHours, dao.minVotingPeriod);
    if (dao.maxActiveProposalsPerAuthor !== null) {
      // one creator's proposals in one DAO are counted one transaction at a time, so concurrent creates
      // cannot all see room for one more (a transaction-scoped lock, released at commit)
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`proposals:${dao.id}:${creator}`}))`);
      const [open] = await tx
        .select({ n: count() })
        .from(proposals)
        .where(
          and(
            eq(proposals.daoId, dao.id),
            eq(proposals.creatorAddress, creator),
            or(
              eq(proposals.status, 'PENDING'),
              and(eq(proposals.status, 'ACTIVE'), gt(proposals.endTime, now)),
            ),
          ),
        );
      if (Number(open?.n ?? 0) >= dao.maxActiveProposalsPerAuthor)
        throw conflict(
          `${creator} already has ${dao.maxActiveProposalsPerAuthor} open proposals in this DAO, its limit`,
          'TOO_MANY_ACTIVE_PROPOSALS',
        );
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
  if (created === RULES_CHANGED) return created;
  if (!created.startToken) return created.view;
  // voting opens now: the snapshot block is taken at once; if the chain does not answer the proposal stays
  // PENDING with snapshotError and the scheduler retries
  const after = await advanceProposal(svc, created.view.proposalId);
  return after ? { ...proposalSummaryView(after), votes: [], voteCount: 0 } : created.view;
}
