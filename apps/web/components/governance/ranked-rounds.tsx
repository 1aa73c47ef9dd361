import { byScore, formatPercent, formatScore } from '../../lib/governance/format';
import type { Results } from '../../lib/governance/types';

type Round = NonNullable<Results['rounds']>[number];

/** a round's score as a share of the weight still counted in it (ranked-choice weights are whole units) */
function share(weight: string, remaining: string): number {
  const total = Number(remaining);
  return total > 0 ? (Number(weight) / total) * 100 : 0;
}

/**
 * The instant-runoff rounds of a ranked-choice proposal, one step each: the options still in the race
 * with their scores (highest first) and share of the weight still counted, then the option eliminated
 * after the round (none in the last one).
 */
export function RankedRounds({ rounds, winner }: { rounds: Round[]; winner: string | null }) {
  const out = new Set<string>();
  const steps = rounds.map((r) => {
    const scores = byScore(r.scores.filter((s) => !out.has(s.option)));
    if (r.eliminated) out.add(r.eliminated);
    return { ...r, scores };
  });
  const last = steps.length - 1;
  return (
    <section className="rounds" aria-labelledby="rounds-heading" data-testid="rounds">
      <h3 id="rounds-heading" className="rounds-heading">
        Instant-runoff rounds
      </h3>
      <ol className="round-list">
        {steps.map((r, i) => (
          <li key={r.round} className="round" data-testid={`round-${r.round}`}>
            <div className="round-title">
              <strong>Round {r.round}</strong>
              <span className="muted small"> · weight counted {formatScore(r.remainingWeight)}</span>
            </div>
            <ul className="round-scores">
              {r.scores.map((s) => (
                <li
                  key={s.option}
                  data-option={s.option}
                  data-weight={s.weight}
                  className={s.option === r.eliminated ? 'round-eliminated' : undefined}
                >
                  <span className="result-option">{s.option}</span>{' '}
                  <span className="result-figures">
                    {formatScore(s.weight)} ({formatPercent(share(s.weight, r.remainingWeight))})
                  </span>
                </li>
              ))}
            </ul>
            <p className="small round-outcome" data-testid={`round-${r.round}-outcome`}>
              {r.eliminated
                ? `${r.eliminated} eliminated; its ballots count for their next choice.`
                : i === last
                  ? winner
                    ? `Final round: ${winner} has the most weight.`
                    : 'Final round: no single leader.'
                  : null}
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
