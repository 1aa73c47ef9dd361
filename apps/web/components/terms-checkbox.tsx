import { useId } from 'react';

export function TermsCheckbox({ errors }: { errors?: string[] | undefined }) {
  const id = useId();
  return (
    <div className="field">
      <div className="checkbox">
        <input
          id={id}
          type="checkbox"
          name="acceptedTerms"
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errors?.length ? `${id}-errors` : undefined}
        />
        <label htmlFor={id}>I accept the terms of use</label>
      </div>
      {errors?.length ? (
        <ul id={`${id}-errors`} className="field-errors" data-field-errors="acceptedTerms">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
