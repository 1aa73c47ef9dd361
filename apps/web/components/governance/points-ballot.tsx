'use client';
import { useId } from 'react';
import { formatPercent } from '../../lib/governance/format';
import { pointsSplit } from '../../lib/governance/systems';

/**
 * A weighted or quadratic ballot: points per option (numbers ≥ 0, fractions allowed); the split of the
 * voter's weight that those points make shows as they type.
 */
export function PointsBallot({
  options,
  points,
  onChange,
  quadratic,
  describedBy,
}: {
  options: readonly string[];
  points: Readonly<Record<string, string>>;
  onChange: (points: Record<string, string>) => void;
  quadratic: boolean;
  describedBy?: string | undefined;
}) {
  const id = useId();
  const split = pointsSplit(options, points);
  return (
    <div className="stack points" data-testid="points-ballot">
      <p className="muted small" id={`${id}-hint`}>
        Give points to the options you support (0 or more, fractions allowed; at least one above 0). Your
        weight is split in proportion to the points.
        {quadratic &&
          ' Quadratic voting then counts the square root of each share, summed over voters and squared: many small supporters outweigh one large one.'}
      </p>
      <ul className="points-list">
        {split.shares.map(({ option, percent }, i) => (
          <li key={option} className="points-row" data-testid={`points-${option}`}>
            <label htmlFor={`${id}-${i}`} className="points-option">
              {option}
            </label>
            <input
              id={`${id}-${i}`}
              // text with a decimal keypad: a number input would hide what was typed when it is not a number
              type="text"
              inputMode="decimal"
              autoComplete="off"
              placeholder="0"
              value={points[option] ?? ''}
              aria-describedby={[`${id}-${i}-share`, describedBy].filter(Boolean).join(' ')}
              onChange={(e) => onChange({ ...points, [option]: e.target.value })}
            />
            <output
              id={`${id}-${i}-share`}
              htmlFor={`${id}-${i}`}
              className="points-share"
              data-testid={`share-${option}`}
              data-percent={percent}
            >
              {formatPercent(percent)}
            </output>
            <div className="bar points-bar" aria-hidden="true">
              <div className="bar-fill" style={{ width: `${percent}%` }} />
            </div>
          </li>
        ))}
      </ul>
      <p className="muted small" data-testid="points-total" aria-live="polite">
        {split.total > 0
          ? `Your weight goes ${split.shares
              .filter((s) => s.points > 0)
              .map((s) => `${formatPercent(s.percent)} to ${s.option}`)
              .join(', ')}.`
          : 'No points given yet.'}
      </p>
    </div>
  );
}
