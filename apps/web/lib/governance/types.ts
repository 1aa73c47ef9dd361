import type { AppRouter } from '@plenum/api';
import type { inferRouterOutputs } from '@trpc/server';

type Governance = inferRouterOutputs<AppRouter>['governance'];

export type Dao = Governance['daos']['get'];
export type DaoSummary = Governance['daos']['list']['items'][number];
export type Member = Governance['members']['list']['items'][number];
export type Proposal = Governance['proposals']['get'];
export type ProposalSummary = Governance['proposals']['byDao']['items'][number];
export type Vote = Governance['votes']['get'];
/** POST /votes: the vote with its receipt, the CID of its leaf in the proposal's record */
export type CastVote = Governance['votes']['cast'];
export type Results = Governance['votes']['results'];
export type ProposalStatus = ProposalSummary['status'];
export type DaoStatus = DaoSummary['status'];

export const sameAddress = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase();
