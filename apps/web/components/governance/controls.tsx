import type { ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { FieldItem } from '../ui/field';
import { Pager as UiPager } from '../ui/pager';
import { Select } from '../ui/select';
import { Textarea } from '../ui/textarea';

interface Labelled {
  label: string;
  name: string;
  errors?: string[] | undefined;
  hint?: ReactNode;
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
  return (
    <FieldItem label={label} name={name} errors={errors} hint={hint}>
      {(control) => <Textarea name={name} className={className ?? 'resize-y'} {...control} {...rest} />}
    </FieldItem>
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
  return (
    <FieldItem label={label} name={name} errors={errors} hint={hint}>
      {(control) => (
        <Select name={name} {...control} {...rest}>
          {children}
        </Select>
      )}
    </FieldItem>
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
