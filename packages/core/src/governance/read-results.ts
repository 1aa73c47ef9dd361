import { type DbOrTx, daos, proposals, proposalTallies } from '@plenum/db';
import { eq, sql } from 'drizzle-orm';
import type { Services } from '../services';
import { notFound } from '../shared/errors';
import { basisOf, type ResultsView, resultsOf, resultsView } from './results';
import { ensureCurrentStatus, isDue } from './status-automation';
import type { OptionCount } from './tally';

/** the results read as one prepared statement per database (no SQL building per read) */
function prepareResultsRead(db: DbOrTx) {
  const tallies = sql<string>`(
    select coalesce(json_agg(t), '[]')::text from (
      select option, sum(votes)::text as votes, sum(weight)::text as weight, max(updated_at) as at
      from ${proposalTallies} where proposal_id = ${proposals.id} group by option
    ) t)`;
  return db
    .select({
      p: proposals,
      threshold: daos.threshold,
      quorum: daos.quorum,
      resultsVisibility: daos.resultsVisibility,
      tallies,
    })
    .from(proposals)
    .innerJoin(daos, eq(daos.id, proposals.daoId))
    .where(eq(proposals.id, sql.placeholder('id')))
    .limit(1)
    .prepare('plenum_results_read');
}
const resultsReads = new WeakMap<object, ReturnType<typeof prepareResultsRead>>();

/**
 * GET /votes/proposal/{id}/results: one round trip for the common case (the proposal, its DAO's rules and
 * the few tally rows aggregated in one statement); a proposal past its time is moved forward first.
 */
export async function getResults(svc: Services, params: { proposalId: string }): Promise<ResultsView> {
  const { proposalId } = params;
  let read = resultsReads.get(svc.db);
  if (!read) {
    read = prepareResultsRead(svc.db);
    resultsReads.set(svc.db, read);
  }
  const [row] = await read.execute({ id: proposalId });
  if (!row) throw notFound('Proposal not found');
  if (row.p.status === 'PENDING' || isDue(row.p, svc.clock.now())) {
    return resultsOf(svc.db, await ensureCurrentStatus(svc, row.p));
  }
  let updatedAt = row.p.updatedAt;
  const byOption = new Map<string, OptionCount>();
  for (const t of JSON.parse(row.tallies) as {
    option: string;
    votes: string;
    weight: string;
    at: string;
  }[]) {
    byOption.set(t.option, { votes: Number(t.votes), weight: BigInt(t.weight) });
    const at = new Date(t.at);
    if (at > updatedAt) updatedAt = at;
  }
  return resultsView(basisOf(row.p, row), byOption, updatedAt);
}
