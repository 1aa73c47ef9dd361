/**
 * The voting systems by name (docs/governance.md, "Adding a voting system"): cast, commit, the tallies,
 * the votes filter and signed votes all go through this record, so a new system is its own file and one
 * line here (plus its line in @plenum/validators' VOTING_SYSTEM_TRAITS and its translations).
 */

import { approval } from './approval';
import { basic } from './basic';
import { quadratic } from './quadratic';
import { rankedChoice } from './ranked-choice';
import { singleChoice } from './single-choice';
import type { IncrementalTally, SystemDefinition, VotingSystem } from './types';
import { weighted } from './weighted';

const SYSTEMS = {
  'single-choice': singleChoice,
  basic,
  approval,
  weighted,
  quadratic,
  'ranked-choice': rankedChoice,
} satisfies { readonly [S in VotingSystem]: SystemDefinition<S> };

type Registry = { readonly [S in VotingSystem]: SystemDefinition<S> };

/** the definition of `system`; called with a ballot's `system`, it takes that ballot */
export function systemOf<S extends VotingSystem>(system: S): SystemDefinition<S> {
  return (SYSTEMS as Registry)[system];
}

/** the systems kept as running sums (the others are recounted from their distinct ballots) */
export type IncrementalSystem = {
  [S in VotingSystem]: (typeof SYSTEMS)[S]['tally'] extends IncrementalTally<S> ? S : never;
}[VotingSystem];

/** the running-sum tally of an incremental system; a TypeError for a recounted one (a caller's bug) */
export function incrementalTally<S extends VotingSystem>(system: S): IncrementalTally<S> {
  const { tally } = systemOf(system);
  if (tally.kind !== 'incremental') throw new TypeError(`${system} is not counted as running sums`);
  return tally;
}
