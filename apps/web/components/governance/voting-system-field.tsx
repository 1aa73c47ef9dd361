'use client';
import { useId } from 'react';
import { VOTING_SYSTEMS, type VotingSystem } from '../../lib/governance/systems';

/** The proposal's voting system: one radio per system, each with its one-line explanation. */
export function VotingSystemField({
  value,
  onChange,
  errors,
}: {
  value: VotingSystem;
  onChange: (system: VotingSystem) => void;
  errors?: string[] | undefined;
}) {
  const id = useId();
  return (
    <fieldset
      className="stack voting-systems"
      aria-describedby={errors?.length ? `${id}-errors` : undefined}
      data-testid="voting-system-field"
    >
      <legend>Voting system</legend>
      {VOTING_SYSTEMS.map((s) => (
        <div key={s.value} className="system-choice">
          <input
            type="radio"
            id={`${id}-${s.value}`}
            name="votingSystem"
            value={s.value}
            checked={value === s.value}
            aria-describedby={`${id}-${s.value}-hint`}
            onChange={() => onChange(s.value)}
          />
          <label htmlFor={`${id}-${s.value}`}>{s.name}</label>
          <span id={`${id}-${s.value}-hint`} className="muted small system-hint">
            {s.explanation}
          </span>
        </div>
      ))}
      {errors?.length ? (
        <ul id={`${id}-errors`} className="field-errors" data-field-errors="votingSystem">
          {errors.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
