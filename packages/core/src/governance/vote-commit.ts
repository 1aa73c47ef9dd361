import {
  type Database,
  daoMembers,
  daos,
  proposals,
  proposalTallies,
  type Tx,
  users,
  votes,
  wallets,
} from '@plenum/db';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { AppError, conflict, forbidden, notFound } from '../shared/errors';
import { executePrepared, rowsOf } from '../shared/prepared';
import { ineligibility, refusalOf } from './eligibility';
import { appendEventsInBulk, type NewEvent } from './event-log';
import { type ResultsBasis, resultsHidden, resultsView } from './results';
import { hiddenVoteView, voteView } from './serialize';
import { addDeltas, storedBallot, tallyDeltas } from './system-tallies';
import { type Ballot, systemOf } from './systems';
import type { OptionCount } from './tally';

/**
 * One batch of votes for one proposal, in one transaction: re-check eligibility and state under a share
 * lock on the proposal row (finalization takes the row exclusively, so it waits for this batch and
 * counts it), one multi-row INSERT … ON CONFLICT DO NOTHING (the unique index decides duplicates, across
 * instances too), one upsert of a tally shard per option, one vote_cast event per vote carrying the
 * results right after it. Returns each vote's row or its refusal, in the order given.
 */

export interface VoteRequest {
  proposalId: string;
  daoId: string;
  voterAddress: string;
  /** the option, or the ballot's canonical JSON text (system-tallies.ts, storedChoice) */
  choice: string;
  /** the ballot as JSON for the array and object systems; null for single-choice and basic */
  ballot: string[] | Record<string, number> | null;
  /** the checked ballot, for the tallies (not stored as such) */
  parsed: Ballot;
  weight: string;
  comment: string;
  signature: string | null;
  signedTimestamp: number | null;
  /** the choice as signed, when it differs from the option (kept so the signature verifies offline) */
  signedChoice: string | null;
  createdAt: Date;
  /** the signed-in user voting for voterAddress; null for a signed vote */
  actingUserId: string | null;
}

export type VoteRow = typeof votes.$inferSelect;
type CountedVote = VoteRow & { parsed: Ballot };
export const TALLY_SHARDS = 8;

const alreadyVoted = (voter: string) =>
  conflict(`${voter} has already voted on this proposal`, 'ALREADY_VOTED');

export function commitVotes(db: Database, now: Date, proposalId: string, reqs: VoteRequest[]) {
  const daoId = reqs[0]!.daoId;
  const voters = [...new Set(reqs.map((r) => r.voterAddress))];
  return db.transaction(async (tx): Promise<(VoteRow | AppError)[]> => {
    // both reads go out together (pipelined on the transaction's connection)
    const [[state], memberRows, walletRows] = await Promise.all([
      tx
        .select({
          status: proposals.status,
          votingOptions: proposals.votingOptions,
          votingSystem: proposals.votingSystem,
          eligibleVoters: proposals.eligibleVoters,
          eligibleWeight: proposals.eligibleWeight,
          daoStatus: daos.status,
          threshold: proposals.threshold,
          quorum: proposals.quorum,
          resultsVisibility: proposals.resultsVisibility,
          startTime: proposals.startTime,
          endTime: proposals.endTime,
          // the rules the proposal was created under (docs/governance.md, "Changing the rules")
          tokenWeighted: proposals.tokenWeighted,
          allowVoteChange: proposals.allowVoteChange,
          delegation: proposals.delegation,
          membership: proposals.membership,
          snapshotBlockNumber: proposals.snapshotBlockNumber,
          snapshotBlockHash: proposals.snapshotBlockHash,
          snapshotBlockTime: proposals.snapshotBlockTime,
        })
        .from(proposals)
        .innerJoin(daos, eq(daos.id, proposals.daoId))
        .where(eq(proposals.id, proposalId))
        .for('share', { of: proposals })
        .prepare('vote_batch_state')
        .execute(),
      // still a member: a removal after the snapshot takes the vote away
      tx
        .select({ address: daoMembers.address })
        .from(daoMembers)
        .where(
          and(eq(daoMembers.daoId, daoId), sql`${daoMembers.address} = any(${sql.param(voters)}::text[])`),
        )
        .prepare('vote_batch_members')
        .execute(),
      // whose wallet it is: the signed-in voter's (session votes), and nobody suspended or deleted
      tx
        .select({
          address: wallets.address,
          userId: wallets.userId,
          status: users.status,
          deletedAt: users.deletedAt,
        })
        .from(wallets)
        .innerJoin(users, eq(users.id, wallets.userId))
        .where(sql`${wallets.address} = any(${sql.param(voters)}::text[])`)
        .prepare('vote_batch_owners')
        .execute(),
    ]);
    if (!state) return reqs.map(() => notFound('Proposal not found'));
    const members = new Set(memberRows.map((r) => r.address));
    const owners = new Map(walletRows.map((r) => [r.address, r]));

    const outcomes: (VoteRow | AppError | null)[] = reqs.map(() => null);
    // one vote per voter goes in; `before` says which
    const chosen = new Map<string, number>();
    reqs.forEach((req, i) => {
      const owner = owners.get(req.voterAddress);
      if (req.actingUserId && owner?.userId !== req.actingUserId)
        outcomes[i] = forbidden(
          `${req.voterAddress} is not a wallet of the signed-in user`,
          'NOT_YOUR_ADDRESS',
        );
      else {
        // the one eligibility decision (eligibility.ts), on what this batch read under the lock; the
        // voter is in the electorate (cast-vote.ts checked it with the weight it sends)
        const reason = ineligibility({
          now,
          proposal: {
            status: state.status,
            startTime: state.startTime,
            endTime: state.endTime,
            snapshotAt: null,
          },
          dao: {
            status: state.daoStatus,
            tokenWeighted: state.tokenWeighted,
            holdersOpen: state.membership === 'token-holders',
          },
          member: members.has(req.voterAddress) ? { addedAt: null } : null,
          account: owner ?? null,
          weight: req.weight,
        });
        if (reason) {
          outcomes[i] = refusalOf(reason, req.voterAddress);
          return;
        }
        const other = chosen.get(req.voterAddress);
        if (other === undefined || before(req, reqs[other]!)) {
          if (other !== undefined) outcomes[other] = alreadyVoted(req.voterAddress);
          chosen.set(req.voterAddress, i);
        } else outcomes[i] = alreadyVoted(req.voterAddress);
      }
    });
    const accepted = [...chosen.values()].sort((a, b) => a - b);

    if (accepted.length) {
      // address order, so two batches racing on the same voters lock them in one order
      let rows = accepted.map((i) => reqs[i]!).sort((a, b) => (a.voterAddress < b.voterAddress ? -1 : 1));
      let replaced = new Map<string, Replaced>();
      let stale = new Set<string>();
      // with delegation, a counted vote's weight changes while counting (a delegator's override): its row
      // is locked only under the counting lock, so a change takes that lock before it locks the vote it
      // replaces (docs/governance.md, "Counting")
      const lockedEarly = state.delegation && state.allowVoteChange;
      if (lockedEarly) await countLock(tx, proposalId);
      if (state.allowVoteChange) {
        ({ replaced, stale } = await replacePrevious(tx, now, proposalId, rows));
        if (stale.size) rows = rows.filter((r) => !stale.has(r.voterAddress));
      }
      const keys = new Map(rows.map((r) => [r.voterAddress, orderKeyOf(r, replaced.get(r.voterAddress))]));
      const ids = rows.length
        ? await insertVotes(tx, proposalId, daoId, rows, keys)
        : new Map<string, string>();
      const counted: CountedVote[] = [];
      const answered = new Map<string, VoteRow>();
      for (const i of accepted) {
        const req = reqs[i]!;
        if (stale.has(req.voterAddress)) {
          outcomes[i] = conflict(
            'This signed vote is not ordered after the vote it would replace (a signature sent again, or ' +
              "signed before that vote's time): sign the change again later, or vote while signed in",
            'STALE_SIGNATURE',
          );
          continue;
        }
        const id = ids.get(req.voterAddress);
        if (!id) {
          outcomes[i] = alreadyVoted(req.voterAddress);
          continue;
        }
        const { actingUserId: _a, parsed: _p, ...vote } = req;
        const row: VoteRow = {
          ...vote,
          id,
          ownWeight: vote.weight,
          delegatedWeight: '0',
          orderKey: keys.get(req.voterAddress)!,
          replacedAt: null,
          updatedAt: req.createdAt,
        };
        outcomes[i] = row;
        answered.set(id, row);
        counted.push({ ...row, parsed: req.parsed });
      }
      if (counted.length) {
        await countVotes(tx, now, { proposalId, ...state }, counted, replaced, lockedEarly);
        // a delegate's vote carries its delegators' weight (countVotes set it on the counted copies)
        for (const c of counted)
          Object.assign(answered.get(c.id)!, { weight: c.weight, delegatedWeight: c.delegatedWeight });
      }
    }
    return outcomes.map((o) => o ?? new AppError('INTERNAL_SERVER_ERROR', 'vote not processed'));
  });
}

/**
 * Of one voter's votes in one batch, the one that goes in (the others: 409 ALREADY_VOTED, as for two
 * changes at the same instant): a session vote before any signed one, as it is never stale, then the
 * first; of signed ones the latest signed. So a replayed signature arriving beside the voter's own
 * change cannot push that change out of the batch (docs/governance.md, "Changing a vote").
 */
function before(a: VoteRequest, b: VoteRequest): boolean {
  if (b.signedTimestamp === null) return false;
  return a.signedTimestamp === null || a.signedTimestamp > b.signedTimestamp;
}

/** a counted vote that a new one of the same voter replaces: what comes off the tallies, and its order */
interface Replaced {
  id: string;
  choice: string;
  weight: string;
  orderKey: number;
}

/** a vote's place among its voter's votes on the proposal, Unix seconds (schema: votes.order_key) */
const storedOrderKey = (v: { orderKey: number | null; signedTimestamp: number | null; createdAt: Date }) =>
  v.orderKey ?? v.signedTimestamp ?? Math.floor(v.createdAt.getTime() / 1000);

/**
 * A signed vote stands at its timestamp; a session vote at the second it arrived, but never below the
 * vote it replaces: a session change made after a signature dated ahead (within the clock-skew window)
 * is ordered after that signature, so sending the signature again is stale.
 */
function orderKeyOf(req: VoteRequest, previous: Replaced | undefined): number {
  if (req.signedTimestamp !== null) return req.signedTimestamp;
  const at = Math.floor(req.createdAt.getTime() / 1000);
  return previous ? Math.max(at, previous.orderKey) : at;
}

/**
 * votingRules.allowVoteChange (docs/governance.md, "Changing a vote"): the voters' counted votes, locked
 * (address order, as the insert) and marked replaced before the new ones go in, so the partial unique
 * index keeps one counted vote per voter. A batch racing on the same voter waits for the lock, then finds
 * no counted vote left to replace and its insert conflicts: 409 ALREADY_VOTED, one counted vote.
 *
 * A signed change must be ordered after the vote it replaces (its timestamp above that vote's order key,
 * see orderKeyOf): every signed vote stays public, so without this anyone could send a voter's earlier
 * signature again, within its validity window, and undo the voter's change. Such a vote is `stale`:
 * refused, nothing replaced. Keys never go down along a voter's votes, so every earlier signature is
 * stale, whatever its timestamp.
 */
async function replacePrevious(tx: Tx, now: Date, proposalId: string, rows: VoteRequest[]) {
  const found = await tx
    .select({
      id: votes.id,
      voterAddress: votes.voterAddress,
      choice: votes.choice,
      weight: votes.weight,
      signedTimestamp: votes.signedTimestamp,
      createdAt: votes.createdAt,
      orderKey: votes.orderKey,
    })
    .from(votes)
    .where(
      and(
        eq(votes.proposalId, proposalId),
        isNull(votes.replacedAt),
        sql`${votes.voterAddress} = any(${sql.param(rows.map((r) => r.voterAddress))}::text[])`,
      ),
    )
    .orderBy(votes.voterAddress)
    .for('update');
  const byVoter = new Map(rows.map((r) => [r.voterAddress, r]));
  const stale = new Set<string>();
  const previous = found
    .map((p) => ({
      id: p.id,
      voterAddress: p.voterAddress,
      choice: p.choice,
      weight: p.weight,
      orderKey: storedOrderKey(p),
    }))
    .filter((p) => {
      const ts = byVoter.get(p.voterAddress)?.signedTimestamp ?? null;
      if (ts === null || ts > p.orderKey) return true;
      stale.add(p.voterAddress);
      return false;
    });
  if (previous.length) {
    await tx
      .update(votes)
      .set({ replacedAt: now, updatedAt: now })
      .where(
        inArray(
          votes.id,
          previous.map((p) => p.id),
        ),
      );
  }
  return { replaced: new Map<string, Replaced>(previous.map((p) => [p.voterAddress, p])), stale };
}

/**
 * One INSERT for the whole batch with one array parameter per column (unnest), so building the statement
 * costs the same for 1 or 1,000 votes; duplicates are skipped by the unique index and not returned.
 */
async function insertVotes(
  tx: Tx,
  proposalId: string,
  daoId: string,
  rows: VoteRequest[],
  keys: ReadonlyMap<string, number>,
) {
  const col = <T>(f: (r: VoteRequest) => T) => sql.param(rows.map(f));
  const result = await executePrepared(
    tx,
    'vote_batch_insert',
    sql`
    insert into ${votes} (proposal_id, dao_id, voter_address, choice, ballot, weight, comment, signature,
      signed_timestamp, signed_choice, order_key, created_at, updated_at)
    select ${proposalId}::uuid, ${daoId}::uuid, v.voter, v.choice, v.ballot::jsonb, v.weight::numeric,
      v.comment, v.sig, v.ts::bigint, v.signed_choice, v.ord::bigint, v.at::timestamptz, v.at::timestamptz
    from unnest(${col((r) => r.voterAddress)}::text[], ${col((r) => r.choice)}::text[],
      ${col((r) => (r.ballot === null ? null : JSON.stringify(r.ballot)))}::text[],
      ${col((r) => r.weight)}::text[], ${col((r) => r.comment)}::text[], ${col((r) => r.signature)}::text[],
      ${col((r) => (r.signedTimestamp === null ? null : String(r.signedTimestamp)))}::text[],
      ${col((r) => r.signedChoice)}::text[],
      ${col((r) => String(keys.get(r.voterAddress)))}::text[],
      ${col((r) => r.createdAt.toISOString())}::text[])
      as v(voter, choice, ballot, weight, comment, sig, ts, signed_choice, ord, at)
    on conflict (proposal_id, voter_address) where replaced_at is null do nothing
    returning id, voter_address`,
  );
  const returned = rowsOf<{ id: string; voter_address: string }>(result);
  return new Map(returned.map((r) => [r.voter_address, r.id]));
}

/** advisory-lock namespace of the per-proposal counting lock (two-int form, apart from other locks) */
const COUNT_LOCK_NS = 727_002;

/** the per-proposal counting lock, held to commit */
const countLock = (tx: Tx, proposalId: string) =>
  executePrepared(
    tx,
    'vote_batch_count_lock',
    sql`select pg_advisory_xact_lock(${COUNT_LOCK_NS}, hashtext(${proposalId}))`,
  );

/**
 * Adds the votes to a tally shard and appends a vote_cast per vote with the results right after it.
 * Batches of a proposal overlap everywhere else but take turns here (a transaction-scoped advisory lock,
 * held to commit), so each batch reads totals that include every batch counted before it — on any
 * instance — and the results carried by consecutive events never go backwards.
 */
async function countVotes(
  tx: Tx,
  now: Date,
  basis: ResultsBasis & { delegation: boolean },
  rows: CountedVote[],
  replaced: ReadonlyMap<string, Replaced>,
  locked: boolean,
) {
  if (!locked) await countLock(tx, basis.proposalId);
  // delegated weight, read under the lock so every earlier batch is seen: it sets the weight of this
  // batch's delegates' votes, and what the overrides take off earlier votes of delegates
  const overrides = basis.delegation ? await countDelegation(tx, now, basis, rows, replaced) : null;
  // what each vote moves on the tally rows, and what a replaced vote takes off them
  const deltas = rows.map((r) => {
    const own = tallyDeltas(r.parsed, BigInt(r.weight));
    const old = replaced.get(r.voterAddress);
    const off = old
      ? tallyDeltas(storedBallot(basis.votingSystem, basis.votingOptions, old.choice), BigInt(old.weight))
      : null;
    return { own, off };
  });
  const totals = new Map<string, OptionCount>();
  for (const { own, off } of deltas) {
    addDeltas(totals, own);
    // a replaced vote comes off its rows (the shard's row may go below zero; the sum over shards cannot)
    if (off) addDeltas(totals, off, -1);
  }
  // the delegators' first votes: their weight leaving their delegates' earlier votes
  if (overrides) addDeltas(totals, overrides);
  const shard = Math.floor(Math.random() * TALLY_SHARDS);
  // fixed option order: two batches on one shard lock its rows in the same order (no deadlock)
  const sorted = [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  // one statement: upsert the shard and read the totals as they were before it (a data-modifying CTE's
  // effects are not visible to the main query): the base of each event's running results. Arrays, not a
  // VALUES list, so the text is the same for every batch (prepared once per connection).
  const base = await executePrepared(
    tx,
    'vote_batch_tally',
    sql`
    with up as (
      insert into ${proposalTallies} (proposal_id, option, shard, votes, weight, updated_at)
      select ${basis.proposalId}::uuid, o.option, ${shard}::smallint, o.votes::bigint, o.weight::numeric,
        ${now.toISOString()}::timestamptz
      from unnest(${sql.param(sorted.map(([o]) => o))}::text[],
        ${sql.param(sorted.map(([, t]) => String(t.votes)))}::text[],
        ${sql.param(sorted.map(([, t]) => t.weight.toString()))}::text[])
        with ordinality as o(option, votes, weight, n)
      order by o.n
      on conflict (proposal_id, option, shard) do update
        set votes = ${proposalTallies}.votes + excluded.votes,
            weight = ${proposalTallies}.weight + excluded.weight,
            updated_at = excluded.updated_at
      returning 1
    )
    select option, sum(votes)::text as votes, sum(weight)::text as weight
    from ${proposalTallies} where proposal_id = ${basis.proposalId} group by option`,
  );
  const baseRows = rowsOf<{ option: string; votes: string; weight: string }>(base);

  const running = new Map<string, OptionCount>(
    baseRows.map((r) => [r.option, { votes: Number(r.votes), weight: BigInt(r.weight) }]),
  );
  // hidden results: each event tells that a vote came and the turnout, not what it chose
  const view = resultsHidden(basis) ? hiddenVoteView : voteView;
  // a recounted system (ranked-choice's runoff) is counted once for the batch: each of its events carries
  // the results after the whole batch (docs/governance.md, "Voting systems"); so does a proposal with
  // delegation, where a delegate's weight depends on the batch's other votes (docs/governance.md,
  // "Counting"); a running-sum system's event the results right after its vote
  const perVote = systemOf(basis.votingSystem).tally.kind === 'incremental' && !basis.delegation;
  if (!perVote) {
    for (const { own, off } of deltas) {
      addDeltas(running, own);
      if (off) addDeltas(running, off, -1);
    }
    if (overrides) addDeltas(running, overrides);
  }
  const batchResults = perVote ? null : resultsView(basis, running, now);
  const events: NewEvent[] = rows.map((r, i) => {
    const old = replaced.get(r.voterAddress);
    if (perVote) {
      const { own, off } = deltas[i]!;
      if (off) addDeltas(running, off, -1);
      addDeltas(running, own);
    }
    return {
      type: 'vote_cast',
      daoId: r.daoId,
      proposalId: r.proposalId,
      // `replaces`: the voter's earlier vote, no longer counted (votingRules.allowVoteChange)
      data: {
        vote: view(r),
        results: batchResults ?? resultsView(basis, running, now),
        replaces: old?.id ?? null,
      },
    };
  });
  await appendEventsInBulk(tx, events, now);
}

/**
 * Delegation on the tallies (docs/governance.md, "Counting"), under the counting lock, after this batch's
 * votes are in (so a delegator voting in this batch counts as having voted). One read, one update:
 * - each vote of this batch whose voter is a frozen delegate carries the electorate weight of its frozen
 *   delegators without a counted vote (its row's delegated_weight and weight, set here on `rows` too);
 * - the first votes of a delegate's frozen delegators, when that delegate has a counted vote from an
 *   earlier batch, take their weight off it: its row loses their sum, and the tallies move by its ballot at
 *   the new weight minus at the old (exact in every system; its ballot count nets to 0).
 * Only a delegator's own frozen delegate counts, never that delegate's delegate (no chaining). Returns
 * what the overrides move on the tally rows, or null when there are none.
 *
 * The read is driven by the batch's addresses (unnest), each looked up by index through a LATERAL
 * subquery that cannot be flattened (OFFSET 0), and each delegator's vote by a per-row EXISTS: a plan that
 * does not depend on the statistics. A proposal that has just started is unknown to them (its id estimated
 * at one row), and the join form of this read then scanned every vote of the proposal for each delegator
 * (150 ms a batch instead of 3 ms; docs/governance.md, "Counting").
 */
async function countDelegation(
  tx: Tx,
  now: Date,
  basis: ResultsBasis,
  rows: CountedVote[],
  replaced: ReadonlyMap<string, Replaced>,
): Promise<Map<string, OptionCount> | null> {
  const voters = rows.map((r) => r.voterAddress);
  const first = voters.filter((v) => !replaced.has(v));
  const found = rowsOf<{
    kind: 'in' | 'out';
    voter: string;
    amount: string;
    vote_id: string | null;
    choice: string | null;
    weight: string | null;
  }>(
    await executePrepared(
      tx,
      'vote_batch_delegation',
      sql`
      select 'in' as kind, e.delegate_address as voter, sum(e.weight)::text as amount,
        null::uuid as vote_id, null::text as choice, null::text as weight
      from unnest(${sql.param(voters)}::text[]) as b(voter)
      cross join lateral (
        select e.delegate_address, e.weight,
          exists (select 1 from ${votes} v where v.proposal_id = ${basis.proposalId}
            and v.voter_address = e.address and v.replaced_at is null) as voted
        from proposal_electorate e
        where e.proposal_id = ${basis.proposalId} and e.delegate_address = b.voter
        offset 0
      ) e
      where not e.voted
      group by e.delegate_address
      union all
      select 'out', e.delegate_address, sum(e.weight)::text, v.id, v.choice, v.weight::text
      from unnest(${sql.param(first)}::text[]) as f(voter)
      cross join lateral (
        select e.delegate_address, e.weight from proposal_electorate e
        where e.proposal_id = ${basis.proposalId} and e.address = f.voter and e.delegate_address is not null
        offset 0
      ) e
      cross join lateral (
        select v.id, v.choice, v.weight from ${votes} v
        where v.proposal_id = ${basis.proposalId} and v.voter_address = e.delegate_address
          and v.replaced_at is null
        offset 0
      ) v
      where v.id <> all(${sql.param(rows.map((r) => r.id))}::text[]::uuid[])
      group by e.delegate_address, v.id, v.choice, v.weight`,
    ),
  );
  if (!found.length) return null;
  const byVoter = new Map(rows.map((r) => [r.voterAddress, r]));
  // vote id → what its weight moves by: up for this batch's delegates, down for earlier delegates' votes
  const change = new Map<string, bigint>();
  const earlier = new Set<string>();
  let moved: Map<string, OptionCount> | null = null;
  for (const f of found) {
    if (f.kind === 'in') {
      const r = byVoter.get(f.voter)!;
      r.delegatedWeight = f.amount;
      r.weight = (BigInt(r.ownWeight) + BigInt(f.amount)).toString();
      change.set(r.id, BigInt(f.amount));
    } else {
      const ballot = storedBallot(basis.votingSystem, basis.votingOptions, f.choice!);
      const old = BigInt(f.weight!);
      const w = BigInt(f.amount);
      moved ??= new Map();
      addDeltas(moved, tallyDeltas(ballot, old - w));
      addDeltas(moved, tallyDeltas(ballot, old), -1);
      change.set(f.vote_id!, -w);
      earlier.add(f.vote_id!);
    }
  }
  // vote id order: the earlier delegates' rows are locked in one order (only a counting-lock holder does)
  const ids = [...change.keys()].sort();
  await executePrepared(
    tx,
    'vote_batch_delegated',
    sql`
    update ${votes} v set weight = v.weight + d.delta::numeric,
      delegated_weight = v.delegated_weight + d.delta::numeric,
      updated_at = case when d.earlier = 't' then ${now.toISOString()}::timestamptz else v.updated_at end
    from unnest(${sql.param(ids)}::text[], ${sql.param(ids.map((i) => change.get(i)!.toString()))}::text[],
      ${sql.param(ids.map((i) => (earlier.has(i) ? 't' : 'f')))}::text[]) as d(id, delta, earlier)
    where v.id = d.id::uuid`,
  );
  return moved;
}
