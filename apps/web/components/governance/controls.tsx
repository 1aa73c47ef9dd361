import { type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';

function Errors({ id, name, errors }: { id: string; name: string; errors?: string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="field-errors" data-field-errors={name}>
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

interface Labelled {
  label: string;
  name: string;
  errors?: string[] | undefined;
  hint?: ReactNode;
}

function describedBy(id: string, hint: unknown, errors?: string[]) {
  return (
    [hint ? `${id}-hint` : null, errors?.length ? `${id}-errors` : null].filter(Boolean).join(' ') ||
    undefined
  );
}

/** A labelled textarea whose hint and errors are announced with it. */
export function TextAreaField({
  label,
  name,
  errors,
  hint,
  ...rest
}: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, hint, errors)}
        {...rest}
      />
      {hint && <div id={`${id}-hint`}>{hint}</div>}
      <Errors id={`${id}-errors`} name={name} errors={errors} />
    </div>
  );
}

/** A labelled select. */
export function SelectField({
  label,
  name,
  errors,
  hint,
  children,
  ...rest
}: Labelled & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, hint, errors)}
        {...rest}
      >
        {children}
      </select>
      {hint && <div id={`${id}-hint`}>{hint}</div>}
      <Errors id={`${id}-errors`} name={name} errors={errors} />
    </div>
  );
}

/** Previous / next over a paged list. */
export function Pager({
  page,
  totalPages,
  onPage,
  label,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  label: string;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {totalPages}
      </span>
      <button
        type="button"
        className="secondary"
        disabled={page >= totalPages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
