import {
  byScore,
  formatDateTime,
  formatPercent,
  formatScore,
  formatWeight,
} from '../../lib/governance/format';
import { formatTokenAmount, type TokenRef } from '../../lib/governance/token';
import type { Results } from '../../lib/governance/types';
import { RankedRounds } from './ranked-rounds';

const isAbstain = (option: string) => option.trim().toLowerCase() === 'abstain';

/**
 * One bar per option, highest score first: score (whole weight units, or a rounded decimal for weighted
 * and quadratic; `data-weight` keeps the exact figure), votes and percent (non-Abstain options as a share of the decided weight,
 * Abstain of all weight, as the API computes them). The threshold marker sits on the decided-weight
 * bars; the turnout bar carries the quorum marker.
 */
export function ResultBars({
  results,
  compact = false,
  token = null,
}: {
  results: Results;
  compact?: boolean;
  /** a token DAO's weights are base units: shown with its decimals and symbol */
  token?: Pick<TokenRef, 'decimals' | 'symbol'> | null;
}) {
  const score = (w: string) =>
    token && /^\d+$/.test(w) ? formatTokenAmount(w, token.decimals, token.symbol) : formatScore(w);
  return (
    <div className="results" data-testid="results">
      {results.hidden && (
        <p className="results-hidden" data-testid="results-hidden">
          Results are hidden until voting ends
          {results.revealAt ? ` (${formatDateTime(results.revealAt)})` : ''}, so early votes do not steer
          later ones. The number of votes and the turnout show now.
        </p>
      )}
      <ul className="result-bars">
        {byScore(results.options).map((o) => {
          const abstain = isAbstain(o.option);
          const winning = results.winningOption === o.option;
          return (
            <li
              key={o.option}
              data-testid={`result-${o.option}`}
              data-weight={o.weight}
              data-percent={o.percent}
            >
              <div className="result-label">
                <span className="result-option">
                  {o.option}
                  {winning && <span className="sr-only"> (leading)</span>}
                </span>
                <span className="result-figures">
                  {formatPercent(o.percent)} · weight {score(o.weight)} · {o.votes}{' '}
                  {o.votes === 1 ? 'vote' : 'votes'}
                </span>
              </div>
              <div className={`bar${winning ? ' bar-leading' : ''}`} aria-hidden="true">
                <div className="bar-fill" style={{ width: `${Math.min(100, o.percent)}%` }} />
                {!abstain && (
                  <div
                    className="bar-marker"
                    style={{ left: `${Math.min(100, results.threshold)}%` }}
                    title={`Threshold ${formatPercent(results.threshold)}`}
                  />
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {!compact && results.rounds && results.totalVotes > 0 && (
        <RankedRounds rounds={results.rounds} winner={results.winningOption} />
      )}
      {!compact && <Turnout results={results} token={token} />}
      {!compact && (
        <p className="muted small results-note">
          Threshold {formatPercent(results.threshold)} of decided weight (marker on the bars)
          {results.quorumPercent > 0
            ? `; quorum ${formatPercent(results.quorumPercent)} of the electorate`
            : ''}
          .
        </p>
      )}
    </div>
  );
}

function Turnout({
  results,
  token,
}: {
  results: Results;
  token: Pick<TokenRef, 'decimals' | 'symbol'> | null;
}) {
  const weight = (w: string) =>
    token ? formatTokenAmount(w, token.decimals, token.symbol) : formatWeight(w);
  return (
    <div className="turnout" data-testid="turnout">
      <div className="result-label">
        <span className="result-option">Turnout</span>
        <span className="result-figures">
          {formatPercent(results.turnoutPercent)} · weight {weight(results.totalWeight)} of{' '}
          {weight(results.eligibleWeight)} · {results.totalVotes} of {results.eligibleVoters} voters
        </span>
      </div>
      <div className="bar bar-turnout" aria-hidden="true">
        <div className="bar-fill" style={{ width: `${Math.min(100, results.turnoutPercent)}%` }} />
        {results.quorumPercent > 0 && (
          <div
            className="bar-marker"
            style={{ left: `${Math.min(100, results.quorumPercent)}%` }}
            title={`Quorum ${formatPercent(results.quorumPercent)}`}
          />
        )}
      </div>
      <p className="small results-note" data-testid="quorum">
        {results.quorumPercent === 0
          ? 'No quorum required.'
          : results.quorumReached
            ? `Quorum of ${formatPercent(results.quorumPercent)} reached.`
            : `Quorum of ${formatPercent(results.quorumPercent)} not reached yet.`}{' '}
        {results.status === 'ACTIVE' || results.status === 'PENDING'
          ? results.passing
            ? 'Passing so far.'
            : 'Not passing so far.'
          : null}
      </p>
    </div>
  );
}
