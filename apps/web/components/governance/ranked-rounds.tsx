import { formatPercent, formatScore } from '../../lib/governance/format';
import { type Round, roundSteps } from '../../lib/governance/rounds';

/**
 * The instant-runoff rounds of a ranked-choice proposal, one step each: the options still in the race
 * with their scores (highest first) and share of the weight still counted, then the option eliminated
 * after the round (none in the last one).
 */
export function RankedRounds({ rounds, winner }: { rounds: Round[]; winner: string | null }) {
  const steps = roundSteps(rounds);
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
                    {formatScore(s.weight)} ({formatPercent(s.share)})
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
