import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  name: string;
  errors?: string[] | undefined;
  /** extra content under the input (hints), announced with it */
  hint?: ReactNode;
}

/** A labelled input whose errors and hints are tied to it for screen readers. */
export function Field({ label, name, errors, hint, ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-errors`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, errors?.length ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {hint && <div id={hintId}>{hint}</div>}
      {errors?.length ? (
        <ul id={errorId} className="field-errors" data-field-errors={name}>
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
