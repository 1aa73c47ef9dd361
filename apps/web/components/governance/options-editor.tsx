'use client';
import { useId } from 'react';

export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 5;

/** 2–5 voting options, each its own labelled input; errors come keyed by index from the schema. */
export function OptionsEditor({
  options,
  onChange,
  errors,
}: {
  options: string[];
  onChange: (options: string[]) => void;
  errors: Record<string, string[]>;
}) {
  const id = useId();
  const general = errors.votingOptions;
  return (
    <fieldset
      className="stack options-editor"
      aria-describedby={general?.length ? `${id}-errors` : undefined}
    >
      <legend>Voting options</legend>
      <p className="muted small">
        2 to 5 distinct options. "For", "Against" and "Abstain" are recognised: Abstain counts toward turnout
        and quorum but not toward the decision.
      </p>
      <ol className="options">
        {options.map((option, i) => {
          const fieldErrors = errors[`votingOptions.${i}`];
          return (
            <li key={i} className="option-row">
              <label htmlFor={`${id}-${i}`} className="sr-only">
                Option {i + 1}
              </label>
              <input
                id={`${id}-${i}`}
                type="text"
                value={option}
                maxLength={100}
                aria-invalid={fieldErrors?.length ? true : undefined}
                aria-describedby={fieldErrors?.length ? `${id}-${i}-errors` : undefined}
                onChange={(e) => onChange(options.map((o, j) => (j === i ? e.target.value : o)))}
              />
              <button
                type="button"
                className="secondary"
                aria-label={`Remove option ${i + 1}`}
                disabled={options.length <= MIN_OPTIONS}
                onClick={() => onChange(options.filter((_, j) => j !== i))}
              >
                Remove
              </button>
              {fieldErrors?.length ? (
                <ul id={`${id}-${i}-errors`} className="field-errors">
                  {fieldErrors.map((m) => (
                    <li key={m}>{m}</li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ol>
      {general?.length ? (
        <ul id={`${id}-errors`} className="field-errors" data-field-errors="votingOptions">
          {general.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : null}
      <button
        type="button"
        className="secondary"
        disabled={options.length >= MAX_OPTIONS}
        onClick={() => onChange([...options, ''])}
      >
        Add option
      </button>
    </fieldset>
  );
}
