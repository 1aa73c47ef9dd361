import {
  type BallotKind,
  VOTING_SYSTEM_TRAITS,
  type VotingSystemName,
} from '@plenum/validators/voting-systems';

/**
 * Voting systems in the web app (docs/governance.md, "Voting systems"): the pure ballot logic the vote
 * form uses — the same rules the API's parseBallot applies, so a ballot the form accepts is one the
 * server accepts. Their names and explanations are translated (messages/<locale>/votes.json).
 */

export type VotingSystem = VotingSystemName;
export type Choice = string | string[] | Record<string, number>;

export type { BallotKind };

/** the ballot the vote form shows for a system (@plenum/validators' VOTING_SYSTEM_TRAITS) */
export const ballotKind = (system: VotingSystem): BallotKind => VOTING_SYSTEM_TRAITS[system].ballot;

// ---- ranking ----

/** `list` with the item at `from` moved to index `to` (clamped); the same array when nothing moves. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const target = Math.max(0, Math.min(list.length - 1, to));
  if (from < 0 || from >= list.length || from === target) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item as T);
  return next;
}

/** the options not ranked yet, in the proposal's order */
export const unranked = (options: readonly string[], ranking: readonly string[]) =>
  options.filter((o) => !ranking.includes(o));

/**
 * Where a dragged item lands: the number of other items whose middle lies above the pointer. `middles`
 * are the vertical centres of all items in list order, the dragged one's included (at `from`).
 */
export function dropIndex(middles: readonly number[], from: number, pointerY: number): number {
  return middles.filter((m, i) => i !== from && m < pointerY).length;
}

// ---- points ----

/** the text of a points input → a number ≥ 0 ('' is 0), or the reason it is not one */
export type PointsProblem = 'nan' | 'infinite' | 'negative';

export function parsePoints(
  text: string,
): { ok: true; value: number } | { ok: false; problem: PointsProblem } {
  const t = text.trim();
  if (t === '') return { ok: true, value: 0 };
  const n = Number(t);
  if (Number.isNaN(n)) return { ok: false, problem: 'nan' };
  if (!Number.isFinite(n)) return { ok: false, problem: 'infinite' };
  if (n < 0) return { ok: false, problem: 'negative' };
  return { ok: true, value: n === 0 ? 0 : n };
}

/**
 * Each option's share of the voter's weight in percent: points / total points × 100, as the API splits
 * a weighted or quadratic ballot. Unreadable inputs count 0; all 0 with no points at all.
 */
export function pointsSplit(options: readonly string[], texts: Readonly<Record<string, string>>) {
  const points = options.map((o) => {
    const p = parsePoints(texts[o] ?? '');
    return p.ok ? p.value : 0;
  });
  const total = points.reduce((a, b) => a + b, 0);
  return {
    total,
    shares: options.map((option, i) => ({
      option,
      points: points[i] ?? 0,
      percent: total > 0 ? ((points[i] ?? 0) / total) * 100 : 0,
    })),
  };
}

// ---- the ballot as sent ----

export type BallotDraft =
  | { kind: 'single'; option: string | null }
  | { kind: 'approval'; approved: readonly string[] }
  | { kind: 'ranked'; ranking: readonly string[] }
  | { kind: 'points'; points: Readonly<Record<string, string>> };

export const emptyDraft = (system: VotingSystem): BallotDraft => {
  const kind = ballotKind(system);
  if (kind === 'single') return { kind, option: null };
  if (kind === 'approval') return { kind, approved: [] };
  if (kind === 'ranked') return { kind, ranking: [] };
  return { kind, points: {} };
};

/**
 * The ballot a changed vote starts from: the earlier choice, as far as it still names this proposal's
 * options; nothing known (a hidden choice) is the empty ballot.
 */
export function draftOf(
  system: VotingSystem,
  options: readonly string[],
  choice: Choice | null | undefined,
): BallotDraft {
  const empty = emptyDraft(system);
  if (choice === null || choice === undefined) return empty;
  const known = (o: unknown): o is string => typeof o === 'string' && options.includes(o);
  switch (empty.kind) {
    case 'single':
      return known(choice) ? { kind: 'single', option: choice } : empty;
    case 'approval':
      return Array.isArray(choice) ? { kind: 'approval', approved: choice.filter(known) } : empty;
    case 'ranked':
      return Array.isArray(choice) ? { kind: 'ranked', ranking: choice.filter(known) } : empty;
    case 'points':
      return typeof choice === 'object' && !Array.isArray(choice)
        ? {
            kind: 'points',
            points: Object.fromEntries(
              Object.entries(choice)
                .filter(([o]) => known(o))
                .map(([o, p]) => [o, String(p)]),
            ),
          }
        : empty;
  }
}

/** what is wrong with a ballot, for the form to say in its own language */
export type BallotIssue =
  | { code: 'choose' | 'rankOne' | 'rankOnce' | 'pointsNone' }
  | { code: 'notOption'; names: string }
  | { code: 'points'; option: string; problem: PointsProblem };

/**
 * The `choice` to send for a draft, or the issues saying what to fix (the API's parseBallot rules:
 * approval may approve none; a ranking names at least one option, each once; points are numbers ≥ 0 with
 * at least one above 0). Approved options go in the proposal's order, points only for options above 0.
 */
export function ballotChoice(
  options: readonly string[],
  draft: BallotDraft,
): { ok: true; choice: Choice } | { ok: false; issues: BallotIssue[] } {
  const unknown = (names: readonly string[]) => names.filter((n) => !options.includes(n));
  switch (draft.kind) {
    case 'single':
      if (draft.option === null || !options.includes(draft.option))
        return { ok: false, issues: [{ code: 'choose' }] };
      return { ok: true, choice: draft.option };
    case 'approval': {
      if (unknown(draft.approved).length)
        return { ok: false, issues: [{ code: 'notOption', names: unknown(draft.approved).join(', ') }] };
      return { ok: true, choice: options.filter((o) => draft.approved.includes(o)) };
    }
    case 'ranked': {
      if (draft.ranking.length === 0) return { ok: false, issues: [{ code: 'rankOne' }] };
      if (unknown(draft.ranking).length)
        return { ok: false, issues: [{ code: 'notOption', names: unknown(draft.ranking).join(', ') }] };
      if (new Set(draft.ranking).size !== draft.ranking.length)
        return { ok: false, issues: [{ code: 'rankOnce' }] };
      return { ok: true, choice: [...draft.ranking] };
    }
    case 'points': {
      const issues: BallotIssue[] = [];
      const choice: Record<string, number> = {};
      for (const o of options) {
        const p = parsePoints(draft.points[o] ?? '');
        if (!p.ok) issues.push({ code: 'points', option: o, problem: p.problem });
        else if (p.value > 0) choice[o] = p.value;
      }
      if (issues.length) return { ok: false, issues };
      if (Object.keys(choice).length === 0) return { ok: false, issues: [{ code: 'pointsNone' }] };
      return { ok: true, choice };
    }
  }
}
