import {
  type DbOrTx,
  daoMembers,
  daos,
  proposals,
  proposalTallies,
  sqlState,
  users,
  votes,
  wallets,
} from '@plenum/db';
import { and, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Services } from '../services';
import { AppError, conflict, forbidden, notFound } from '../shared/errors';
import { appendEvents, type NewEvent } from './events';
import { type ResultsBasis, readCounts, resultsView } from './results';
import { voteView } from './serialize';
import type { OptionCount } from './tally';

/**
 * Group commit of votes. Votes for one proposal queue up while the previous batch commits; each batch is
 * one transaction: re-check eligibility and state under a share lock on the proposal row, one multi-row
 * INSERT … ON CONFLICT DO NOTHING (the unique index decides duplicates, across instances too), one
 * upsert of a randomly chosen tally shard per option, the vote_cast events, commit. Only then is each
 * request answered, so a 201 means counted and durable, and the tallies always equal a recount.
 */

export interface VoteRequest {
  proposalId: string;
  daoId: string;
  voterAddress: string;
  choice: string;
  weight: string;
  comment: string;
  signature: string | null;
  signedTimestamp: number | null;
  createdAt: Date;
}

type VoteRow = typeof votes.$inferSelect;

interface Pending {
  req: VoteRequest;
  resolve: (row: VoteRow) => void;
  reject: (err: unknown) => void;
}

export const TALLY_SHARDS = 8;
const RETRYABLE = new Set(['40001', '40P01']);

export class VoteBatcher {
  private readonly queues = new Map<string, Pending[]>();
  private readonly draining = new Map<string, Promise<void>>();

  constructor(
    private readonly svc: Services,
    private readonly maxBatch = 1_000,
  ) {}

  submit(req: VoteRequest): Promise<VoteRow> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(req.proposalId) ?? [];
      this.queues.set(req.proposalId, queue);
      queue.push({ req, resolve, reject });
      if (!this.draining.has(req.proposalId)) this.draining.set(req.proposalId, this.drain(req.proposalId));
    });
  }

  /** resolves once every vote submitted so far is committed or refused */
  async flush(): Promise<void> {
    while (this.draining.size) await Promise.all(this.draining.values());
  }

  private async drain(proposalId: string) {
    // let the votes that arrived in the same turn of the event loop join the first batch
    await new Promise((r) => setImmediate(r));
    try {
      for (;;) {
        const queue = this.queues.get(proposalId);
        if (!queue?.length) break;
        await this.commitWithRetry(proposalId, queue.splice(0, this.maxBatch));
      }
    } finally {
      this.queues.delete(proposalId);
      this.draining.delete(proposalId);
    }
  }

  private async commitWithRetry(proposalId: string, batch: Pending[]) {
    for (let attempt = 1; ; attempt++) {
      try {
        const outcomes = await this.commit(proposalId, batch);
        batch.forEach((p, i) => {
          const o = outcomes[i]!;
          if (o instanceof AppError) p.reject(o);
          else p.resolve(o);
        });
        return;
      } catch (err) {
        if (attempt < 3 && RETRYABLE.has(sqlState(err) ?? '')) continue;
        this.svc.log.error({ err, proposalId, size: batch.length }, 'vote batch failed');
        for (const p of batch) p.reject(err);
        return;
      }
    }
  }

  private commit(proposalId: string, batch: Pending[]): Promise<(VoteRow | AppError)[]> {
    return this.svc.db.transaction(async (tx) => {
      const outcomes: (VoteRow | AppError | null)[] = batch.map(() => null);
      const [state] = await tx
        .select({
          status: proposals.status,
          daoId: proposals.daoId,
          votingOptions: proposals.votingOptions,
          eligibleVoters: proposals.eligibleVoters,
          eligibleWeight: proposals.eligibleWeight,
          daoStatus: daos.status,
          threshold: daos.threshold,
          quorum: daos.quorum,
        })
        .from(proposals)
        .innerJoin(daos, eq(daos.id, proposals.daoId))
        .where(eq(proposals.id, proposalId))
        .for('share', { of: proposals });
      if (!state) return batch.map(() => notFound('Proposal not found'));

      // eligibility still holds at commit: still a member (a removal takes the vote away), and no wallet
      // of a suspended or deleted user (matters for signed votes; a session of such a user is refused)
      const voters = [...new Set(batch.map((p) => p.req.voterAddress))];
      const [memberRows, blockedRows] = await Promise.all([
        tx
          .select({ address: daoMembers.address })
          .from(daoMembers)
          .where(and(eq(daoMembers.daoId, state.daoId), inArray(daoMembers.address, voters))),
        tx
          .select({ address: wallets.address })
          .from(wallets)
          .innerJoin(users, eq(users.id, wallets.userId))
          .where(
            and(
              inArray(wallets.address, voters),
              or(eq(users.status, 'suspended'), isNotNull(users.deletedAt)),
            ),
          ),
      ]);
      const members = new Set(memberRows.map((r) => r.address));
      const blocked = new Set(blockedRows.map((r) => r.address));

      const accepted: number[] = [];
      const seen = new Set<string>();
      batch.forEach(({ req }, i) => {
        const voter = req.voterAddress;
        if (!members.has(voter) || blocked.has(voter))
          outcomes[i] = forbidden(`${voter} is not an eligible voter of this proposal`, 'NOT_ELIGIBLE');
        else if (state.status !== 'ACTIVE')
          outcomes[i] = conflict(`The proposal is ${state.status}`, 'PROPOSAL_NOT_ACTIVE');
        else if (state.daoStatus !== 'ACTIVE')
          outcomes[i] = conflict(`The DAO is ${state.daoStatus}: it takes no votes`, 'DAO_NOT_ACTIVE');
        else if (seen.has(voter)) outcomes[i] = alreadyVoted(voter);
        else {
          seen.add(voter);
          accepted.push(i);
        }
      });

      if (accepted.length) {
        const inserted = await tx
          .insert(votes)
          .values(accepted.map((i) => ({ ...batch[i]!.req, updatedAt: batch[i]!.req.createdAt })))
          .onConflictDoNothing({ target: [votes.proposalId, votes.voterAddress] })
          .returning();
        const byVoter = new Map(inserted.map((r) => [r.voterAddress, r]));
        const counted: VoteRow[] = [];
        for (const i of accepted) {
          const row = byVoter.get(batch[i]!.req.voterAddress);
          outcomes[i] = row ?? alreadyVoted(batch[i]!.req.voterAddress);
          if (row) counted.push(row);
        }
        if (counted.length) {
          const basis: ResultsBasis = { proposalId, ...state };
          await this.count(tx, basis, counted);
        }
      }
      return outcomes.map((o) => o ?? new AppError('INTERNAL_SERVER_ERROR', 'vote not processed'));
    });
  }

  /** adds the batch to one tally shard and appends a vote_cast per vote with the results after it */
  private async count(tx: DbOrTx, basis: ResultsBasis, rows: VoteRow[]) {
    const now = this.svc.clock.now();
    const base = await readCounts(tx, basis.proposalId);
    const totals = new Map<string, OptionCount>();
    for (const r of rows) {
      const t = totals.get(r.choice) ?? { votes: 0, weight: 0n };
      totals.set(r.choice, { votes: t.votes + 1, weight: t.weight + BigInt(r.weight) });
    }
    const shard = Math.floor(Math.random() * TALLY_SHARDS);
    // rows in a fixed order, so two batches on one shard lock them in the same order (no deadlock)
    const tallyRows = [...totals.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([option, t]) => ({
        proposalId: basis.proposalId,
        option,
        shard,
        votes: t.votes,
        weight: t.weight.toString(),
        updatedAt: now,
      }));
    await tx
      .insert(proposalTallies)
      .values(tallyRows)
      .onConflictDoUpdate({
        target: [proposalTallies.proposalId, proposalTallies.option, proposalTallies.shard],
        set: {
          votes: sql`${proposalTallies.votes} + excluded.votes`,
          weight: sql`${proposalTallies.weight} + excluded.weight`,
          updatedAt: sql`excluded.updated_at`,
        },
      });

    const running = new Map(base.byOption);
    const events: NewEvent[] = rows.map((r) => {
      const c = running.get(r.choice) ?? { votes: 0, weight: 0n };
      running.set(r.choice, { votes: c.votes + 1, weight: c.weight + BigInt(r.weight) });
      return {
        type: 'vote_cast',
        daoId: r.daoId,
        proposalId: r.proposalId,
        data: { vote: voteView(r), results: resultsView(basis, running, now) },
      };
    });
    await appendEvents(tx, events, now);
  }
}

const alreadyVoted = (voter: string) =>
  conflict(`${voter} has already voted on this proposal`, 'ALREADY_VOTED');
