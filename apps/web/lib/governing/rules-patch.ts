import type { Dao } from '../governance/types';

type Rules = Dao['votingRules'];
type Editable = Omit<Rules, 'token' | 'membership' | 'minWeight'>;

/**
 * The voting rules a settings form shows, against the DAO's current ones: only the fields that differ
 * (PATCH /daos/{daoId} lays them over the rest, docs/governance.md, "Changing the rules"); null when
 * nothing changed. A number the form could not read stays in, for the schema to name it.
 */
export function rulesPatch(
  current: Rules,
  form: { [K in keyof Editable]?: Editable[K] | undefined },
): Partial<Editable> | null {
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(form)) {
    if (value === undefined) continue;
    if (value !== current[key as keyof Editable]) patch[key] = value;
  }
  return Object.keys(patch).length > 0 ? (patch as Partial<Editable>) : null;
}
