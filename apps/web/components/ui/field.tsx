import { type ComponentProps, type ReactNode, useId } from 'react';
import { cn } from '../../lib/cn';
import { Input } from './input';
import { Label } from './label';

/** what a field's control gets, to be tied to its label, hint and errors */
export interface FieldControl {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A labelled control for a form without react-hook-form (TextField in form.tsx is the same inside one,
 * and looks the same): the label, the control `children` renders with the given id and aria attributes,
 * the hint, and the errors (data-field-errors names the field, as FormMessage does).
 */
export function FieldItem({
  label,
  name,
  errors,
  hint,
  describedBy: more,
  children,
}: {
  label: ReactNode;
  name: string;
  errors?: string[] | undefined;
  hint?: ReactNode;
  /** another element that describes the control (a counter) */
  describedBy?: string;
  children: (control: FieldControl) => ReactNode;
}) {
  const id = useId();
  const invalid = !!errors?.length;
  const describedBy = [hint ? `${id}-hint` : null, more ?? null, invalid ? `${id}-errors` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div data-slot="form-item" className="grid min-w-0 gap-1.5">
      <Label htmlFor={id} data-error={invalid} className="data-[error=true]:text-destructive">
        {label}
      </Label>
      {children({ id, 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy || undefined })}
      {hint && (
        <div id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </div>
      )}
      <FieldErrors id={`${id}-errors`} name={name} errors={errors} />
    </div>
  );
}

/** A labelled input (FieldItem with an Input). */
export function Field({
  label,
  name,
  errors,
  hint,
  ...input
}: Omit<ComponentProps<'input'>, 'name'> & {
  label: ReactNode;
  name: string;
  errors?: string[] | undefined;
  hint?: ReactNode;
}) {
  return (
    <FieldItem label={label} name={name} errors={errors} hint={hint}>
      {(control) => <Input name={name} {...control} {...input} />}
    </FieldItem>
  );
}

/**
 * Errors as FieldItem shows them under its control, for a group of controls (a fieldset) or a row; `name`
 * (data-field-errors) names the field they belong to.
 */
export function FieldErrors({
  errors,
  name,
  className,
  ...props
}: Omit<ComponentProps<'p'>, 'children'> & { errors?: readonly string[] | undefined; name?: string }) {
  if (!errors?.length) return null;
  return (
    <p data-field-errors={name} className={cn('text-sm text-destructive', className)} {...props}>
      {errors.join(' ')}
    </p>
  );
}
