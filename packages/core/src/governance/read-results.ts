import type { Services } from '../services';
import { notFound } from '../shared/errors';
import { basisOf, type ResultsView, resultsOf, resultsView } from './results';
import { ensureCurrentStatus, isDue } from './status-automation';
import type { OptionCount } from './tally';

/**
 * GET /votes/proposal/{id}/results: one round trip for the common case (the proposal, its DAO's rules and
 * the few tally rows aggregated in one statement); a proposal past its time is moved forward first.
 */
export async function getResults(svc: Services, params: { proposalId: string }): Promise<ResultsView> {
  const { proposalId } = params;
  const [row] = await svc.governance.resultsRead.execute({ id: proposalId });
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
  return resultsView(basisOf(row.p), byOption, updatedAt);
}
