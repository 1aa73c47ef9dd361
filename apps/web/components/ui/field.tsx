import { type ComponentProps, type ReactNode, useId } from 'react';
import { Input } from './input';
import { Label } from './label';

/**
 * A labelled input for a form without react-hook-form (TextField in form.tsx is the same inside one, and
 * looks the same): its hint and errors are tied to it for screen readers, and data-field-errors names the
 * field as FormMessage does.
 */
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
  const id = useId();
  const errorId = `${id}-errors`;
  const hintId = `${id}-hint`;
  const invalid = !!errors?.length;
  const describedBy = [hint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(' ');
  return (
    <div data-slot="form-item" className="grid min-w-0 gap-1.5">
      <Label htmlFor={id} data-error={invalid} className="data-[error=true]:text-destructive">
        {label}
      </Label>
      <Input
        id={id}
        name={name}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {hint && (
        <div id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </div>
      )}
      {invalid && (
        <p id={errorId} data-field-errors={name} className="text-sm text-destructive">
          {errors.join(' ')}
        </p>
      )}
    </div>
  );
}
