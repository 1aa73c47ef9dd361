import { votes } from '@plenum/db';
import { asc, desc, eq, type SQL, sql } from 'drizzle-orm';
import { badRequest } from '../shared/errors';
import type { ProposalRow } from './rows';
import { systemOf, systemOptions } from './systems';

/** The orders of a proposal's votes list; every one ends on the vote id, so pages never overlap. */
export type VoteSort = 'newest' | 'oldest' | 'weight';

export function voteOrder(sort: VoteSort): SQL[] {
  switch (sort) {
    case 'newest':
      return [desc(votes.createdAt), desc(votes.id)];
    case 'oldest':
      return [asc(votes.createdAt), asc(votes.id)];
    // votes of one group commit share created_at: the id breaks those ties too
    case 'weight':
      return [desc(votes.weight), desc(votes.createdAt), desc(votes.id)];
  }
}

/** the columns of an order's key, for a cursor's row comparison (all one direction, as voteOrder gives them) */
export function voteKeyColumns(sort: VoteSort) {
  return sort === 'weight' ? [votes.weight, votes.createdAt, votes.id] : [votes.createdAt, votes.id];
}

/** the proposal's option named `choice` (trimmed, ignoring case), or a 400 on `choice` */
export function resolveChoiceOption(p: ProposalRow, choice: string): string {
  const wanted = choice.trim().toLowerCase();
  const option = systemOptions(p.votingSystem, p.votingOptions).find((o) => o.toLowerCase() === wanted);
  if (!option) {
    throw badRequest('choice is not an option of this proposal', [
      { path: 'choice', message: 'not an option of this proposal', code: 'unknown_option' },
    ]);
  }
  return option;
}

/**
 * The votes that support `option` in the proposal's voting system (docs/governance.md, "Listing the
 * votes"), by the system's `support`: single-choice and basic store the option itself in `choice`;
 * approval and ranked-choice keep an array of names in `ballot` (approved, or ranked at any place);
 * weighted and quadratic an object of points, where support means points above 0.
 */
export function supportsOption(p: ProposalRow, option: string): SQL {
  switch (systemOf(p.votingSystem).support) {
    case 'choice':
      return eq(votes.choice, option);
    case 'listed':
      return sql`${votes.ballot} @> jsonb_build_array(${option}::text)`;
    case 'points':
      return sql`coalesce((${votes.ballot} ->> ${option}::text)::numeric, 0) > 0`;
  }
}
