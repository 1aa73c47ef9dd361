import { type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';
import { Pager as UiPager } from '../ui/pager';
import { Select } from '../ui/select';
import { Textarea } from '../ui/textarea';

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
  className,
  ...rest
}: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <Textarea
        id={id}
        name={name}
        className={className ?? 'resize-y'}
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
      <Select
        id={id}
        name={name}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, hint, errors)}
        {...rest}
      >
        {children}
      </Select>
      {hint && <div id={`${id}-hint`}>{hint}</div>}
      <Errors id={`${id}-errors`} name={name} errors={errors} />
    </div>
  );
}

/** Previous / "Page 2 of 5" / Next over a paged list (the shared pager, named for its list). */
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
  return (
    <UiPager
      page={page}
      pageCount={totalPages}
      onPageChange={onPage}
      label={label}
      className="justify-start"
    />
  );
}
