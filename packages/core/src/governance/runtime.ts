import { type Database, daos, proposals } from '@plenum/db';
import { eq } from 'drizzle-orm';
import type { TokenRef } from '../chain';
import type { Services } from '../services';
import { loadElectorate } from './electorate';
import type { ProposalRow } from './rows';
import { tokenOf } from './token-snapshot';
import { VoteBatcher } from './vote-batcher';

/**
 * Per-process governance state: the vote batcher and caches of what never changes once known — a
 * proposal's DAO, options and times, and its frozen electorate — so the vote path does not read them per
 * vote. Status is not trusted from here: the batch re-reads it under a lock.
 */
export interface ProposalEntry {
  row: ProposalRow;
  tokenWeighted: boolean;
  /** token-holders DAOs: any wallet holding `minWeight` at the snapshot block may vote (token-snapshot.ts) */
  holders: { token: TokenRef; minWeight: bigint; below: Map<string, bigint> } | null;
  /** address → weight; null until voting has started */
  electorate: Map<string, string> | null;
}

const MAX_CACHED_PROPOSALS = 200;

export class GovernanceRuntime {
  readonly batcher: VoteBatcher;
  private readonly proposals = new Map<string, Promise<ProposalEntry | null>>();

  constructor(
    private readonly svc: Services,
    writer?: Database,
    voteDeadlineMs = 0,
  ) {
    this.batcher = new VoteBatcher(svc, writer, 3, 1_000, voteDeadlineMs);
  }

  proposal(id: string): Promise<ProposalEntry | null> {
    let entry = this.proposals.get(id);
    if (!entry) {
      entry = this.load(id);
      this.proposals.set(id, entry);
      if (this.proposals.size > MAX_CACHED_PROPOSALS)
        this.proposals.delete(this.proposals.keys().next().value!);
      // a missing proposal or a failed read is not remembered
      entry.then((e) => e ?? this.proposals.delete(id)).catch(() => this.proposals.delete(id));
    }
    return entry;
  }

  forget(id: string) {
    this.proposals.delete(id);
  }

  private async load(id: string): Promise<ProposalEntry | null> {
    const [found] = await this.svc.db
      .select({ p: proposals, dao: daos })
      .from(proposals)
      .innerJoin(daos, eq(daos.id, proposals.daoId))
      .where(eq(proposals.id, id))
      .limit(1);
    if (!found) return null;
    const electorate = found.p.status === 'PENDING' ? null : await loadElectorate(this.svc.db, id);
    const token = tokenOf(found.dao);
    const holders =
      token && found.dao.membership === 'token-holders'
        ? {
            token,
            minWeight: BigInt(found.dao.minWeight ?? '1'),
            // wallets read below the minimum at the snapshot block, with the weight read: a past block
            // never changes, so they are not read again (bounded, so nobody can grow it without end)
            below: new Map<string, bigint>(),
          }
        : null;
    return { row: found.p, tokenWeighted: found.dao.tokenWeighted, holders, electorate };
  }
}

const runtimes = new WeakMap<object, GovernanceRuntime>();

/**
 * The runtime of this process for this database. The server's governance plugin calls it first with a
 * dedicated writer connection pool for vote batches; without one, batches use svc.db.
 */
export function governanceRuntime(
  svc: Services,
  options: {
    writer?: Database;
    /** a vote not committed by then is answered 503 (VoteBatcher.submit); 0 or absent = none */
    voteDeadlineMs?: number;
  } = {},
): GovernanceRuntime {
  let rt = runtimes.get(svc.db);
  if (!rt) {
    rt = new GovernanceRuntime(svc, options.writer, options.voteDeadlineMs);
    runtimes.set(svc.db, rt);
  }
  return rt;
}
