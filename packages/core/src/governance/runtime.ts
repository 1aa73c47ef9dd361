import { type Database, proposals } from '@plenum/db';
import { eq } from 'drizzle-orm';
import type { TokenRef } from '../chain';
import type { ServiceBase } from '../service-base';
import { loadElectorate } from './electorate';
import { prepareResultsRead } from './results';
import type { ProposalRow } from './rows';
import { type TokenSnapshot, tokenOf } from './token-snapshot';
import { VoteBatcher } from './vote-batcher';

/** a proposal as the vote path needs it, cached by the runtime */
export interface ProposalEntry {
  row: ProposalRow;
  tokenWeighted: boolean;
  /** token-holders DAOs: any wallet holding `minWeight` at the snapshot block may vote (token-snapshot.ts) */
  holders: { token: TokenRef; minWeight: bigint; below: Map<string, bigint> } | null;
  /** address → weight; null until voting has started */
  electorate: Map<string, string> | null;
}

const MAX_CACHED_PROPOSALS = 200;
/** wallets remembered below a token-holders DAO's minimum, per proposal (so nobody can grow it without end) */
const MAX_BELOW = 100_000;

export interface GovernanceOptions {
  /** connections of their own for vote batches (the server's writer pool); absent: batches use db */
  writer?: Database | undefined;
  /** a vote not committed by then is answered 503 (VoteBatcher.submit); 0 or absent = none */
  voteDeadlineMs?: number | undefined;
}

/**
 * The governance state of one service container (`svc.governance`, built by createCoreServices): the vote
 * batcher, the results read prepared once, the token snapshot reads in flight, and caches of what never
 * changes once voting started — a proposal's rules, options and times, and its frozen electorate — so the
 * vote path does not read them per vote. Status is not trusted from here: the batch re-reads it under a lock.
 */
export class GovernanceRuntime {
  readonly batcher: VoteBatcher;
  /** GET results' one statement (read-results.ts) */
  readonly resultsRead: ReturnType<typeof prepareResultsRead>;
  private readonly proposals = new Map<string, Promise<ProposalEntry | null>>();
  private readonly snapshotReads = new Map<string, Promise<TokenSnapshot>>();
  private readonly db: Database;

  constructor(base: Pick<ServiceBase, 'db' | 'clock' | 'log'>, options: GovernanceOptions = {}) {
    this.db = base.db;
    this.batcher = new VoteBatcher(base, options.writer, 3, 1_000, options.voteDeadlineMs ?? 0);
    this.resultsRead = prepareResultsRead(base.db);
  }

  proposal(id: string): Promise<ProposalEntry | null> {
    let entry = this.proposals.get(id);
    if (!entry) {
      entry = this.load(id);
      this.proposals.set(id, entry);
      if (this.proposals.size > MAX_CACHED_PROPOSALS)
        this.proposals.delete(this.proposals.keys().next().value!);
      // a missing proposal or a failed read is not remembered, nor a PENDING one: its times and options
      // may still be edited (docs/governance.md, "Editing a proposal")
      const forget = () => this.proposals.get(id) === entry && this.proposals.delete(id);
      entry.then((e) => (e && e.row.status !== 'PENDING') || forget()).catch(forget);
    }
    return entry;
  }

  /** the proposal read again (its electorate was frozen since it was cached) */
  reload(id: string): Promise<ProposalEntry | null> {
    this.proposals.delete(id);
    return this.proposal(id);
  }

  /** a voter's weight as the database kept it (a token holder admitted on its first vote) */
  admit(entry: ProposalEntry, voter: string, weight: string) {
    if (weight !== entry.electorate?.get(voter)) entry.electorate?.set(voter, weight);
  }

  /** a wallet read below the minimum at the snapshot block: a past block never changes, so not read again */
  heldBelow(entry: ProposalEntry, voter: string, read: bigint) {
    if (entry.holders && entry.holders.below.size < MAX_BELOW) entry.holders.below.set(voter, read);
  }

  /** concurrent starts of one proposal share one chain read (status-automation.ts) */
  snapshotOnce(id: string, read: () => Promise<TokenSnapshot>): Promise<TokenSnapshot> {
    let p = this.snapshotReads.get(id);
    if (!p) {
      p = read().finally(() => this.snapshotReads.delete(id));
      this.snapshotReads.set(id, p);
    }
    return p;
  }

  private async load(id: string): Promise<ProposalEntry | null> {
    const [row] = await this.db.select().from(proposals).where(eq(proposals.id, id)).limit(1);
    if (!row) return null;
    const electorate = row.status === 'PENDING' ? null : await loadElectorate(this.db, id);
    // the rules the proposal was created under (docs/governance.md, "Changing the rules")
    const token = tokenOf(row);
    const holders =
      token && row.membership === 'token-holders'
        ? {
            token,
            minWeight: BigInt(row.minWeight ?? '1'),
            // wallets read below the minimum at the snapshot block, with the weight read: a past block
            // never changes, so they are not read again (bounded, so nobody can grow it without end)
            below: new Map<string, bigint>(),
          }
        : null;
    return { row, tokenWeighted: row.tokenWeighted, holders, electorate };
  }
}
