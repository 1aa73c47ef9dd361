import { daos, proposals } from '@plenum/db';
import { eq } from 'drizzle-orm';
import type { Services } from '../services';
import { loadElectorate } from './electorate';
import type { ProposalRow } from './load';
import { VoteBatcher } from './vote-batcher';

/**
 * Per-process governance state: the vote batcher and caches of what never changes once known — a
 * proposal's DAO, options and times, and its frozen electorate — so the vote path does not read them per
 * vote. Status is not trusted from here: the batch re-reads it under a lock.
 */
export interface ProposalEntry {
  row: ProposalRow;
  tokenWeighted: boolean;
  /** address → weight; null until voting has started */
  electorate: Map<string, string> | null;
}

const MAX_CACHED_PROPOSALS = 1_000;
const MAX_CACHED_OWNERS = 50_000;
const OWNER_TTL_MS = 30_000;

export class GovernanceRuntime {
  readonly batcher: VoteBatcher;
  private readonly proposals = new Map<string, Promise<ProposalEntry | null>>();
  private readonly owners = new Map<string, number>();

  constructor(private readonly svc: Services) {
    this.batcher = new VoteBatcher(svc);
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

  /** positive ownership answers only, for a short time (a wallet belongs to one user) */
  ownsAddress(userId: string, address: string): boolean {
    const until = this.owners.get(`${userId}|${address}`);
    return until !== undefined && until > Date.now();
  }

  rememberOwner(userId: string, address: string) {
    if (this.owners.size > MAX_CACHED_OWNERS) this.owners.clear();
    this.owners.set(`${userId}|${address}`, Date.now() + OWNER_TTL_MS);
  }

  private async load(id: string): Promise<ProposalEntry | null> {
    const [found] = await this.svc.db
      .select({ p: proposals, tokenWeighted: daos.tokenWeighted })
      .from(proposals)
      .innerJoin(daos, eq(daos.id, proposals.daoId))
      .where(eq(proposals.id, id))
      .limit(1);
    if (!found) return null;
    const electorate = found.p.status === 'PENDING' ? null : await loadElectorate(this.svc.db, id);
    return { row: found.p, tokenWeighted: found.tokenWeighted, electorate };
  }
}

const runtimes = new WeakMap<object, GovernanceRuntime>();

/** the runtime of this process for this database */
export function governanceRuntime(svc: Services): GovernanceRuntime {
  let rt = runtimes.get(svc.db);
  if (!rt) {
    rt = new GovernanceRuntime(svc);
    runtimes.set(svc.db, rt);
  }
  return rt;
}
