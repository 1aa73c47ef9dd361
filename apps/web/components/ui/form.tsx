'use client';
import { toNestErrors } from '@hookform/resolvers';
// the issue codes alone, not the package's index: its zod schemas stay out of pages without a form
import { fieldIssue } from '@plenum/validators/issue-codes';
import { CircleAlert } from 'lucide-react';
import { Slot } from 'radix-ui';
import {
  type ComponentProps,
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useId,
  useState,
} from 'react';
import {
  Controller,
  type ControllerProps,
  type FieldError,
  type FieldErrors,
  type FieldPath,
  type FieldValues,
  FormProvider,
  type Resolver,
  type UseFormProps,
  type UseFormReturn,
  useForm,
  useFormContext,
  useFormState,
} from 'react-hook-form';
import type { z } from 'zod';
import { cn } from '../../lib/cn';
import type { DisplayError, FieldIssue } from '../../lib/errors';
import { useErrorText } from '../../lib/i18n/error-text';
import { Alert, AlertDescription } from './alert';
import { Input } from './input';
import { Label } from './label';

/**
 * react-hook-form with a shared zod schema from @plenum/validators. Each field error keeps its issue
 * (code and params), so FormMessage says it in the page's language (lib/i18n/error-text.ts); an issue
 * the page wrote itself (a refinement with a translated message) shows as written.
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  options?: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'>,
) {
  const resolver: Resolver<z.input<S>, unknown, z.output<S>> = async (values, _context, resolverOptions) => {
    // the input is reported so that an absent value reads "required" rather than a type
    const parsed = await schema.safeParseAsync(values, { reportInput: true });
    if (parsed.success) return { values: parsed.data as z.output<S>, errors: {} };
    const errors: Record<string, IssueError> = {};
    for (const raised of parsed.error.issues) {
      const issue = fieldIssue(raised);
      // the first issue of a field, as zod's resolver shows it
      errors[issue.path] ??= { type: issue.code ?? 'custom', message: issue.message, issues: [issue] };
    }
    return { values: {}, errors: toNestErrors(errors as FieldErrors, resolverOptions) };
  };
  return useForm<z.input<S>, unknown, z.output<S>>({
    resolver,
    // errors appear on submit, then follow the typing; validating on blur would move the layout under a
    // pointer that is about to click the submit button
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    ...options,
  });
}

/** a field error with the issues behind it (react-hook-form keeps extra keys of setError's error) */
type IssueError = FieldError & { issues?: FieldIssue[] };

/**
 * Server-side field errors (DisplayError.fields, keyed by path) onto the form's fields, each with its
 * issues so FormMessage can say them in the page's language; returns the rest.
 */
export function setServerErrors<V extends FieldValues, O>(
  form: UseFormReturn<V, unknown, O>,
  error: DisplayError,
) {
  const names = Object.keys(form.getValues());
  const unplaced: string[] = [];
  for (const [path, messages] of Object.entries(error.fields)) {
    const root = path.split('.')[0] ?? '';
    const issues = error.issues?.filter((i) => (i.path || '') === path);
    if (path && names.includes(root)) {
      const fieldError: IssueError = { type: 'server', message: messages.join(' '), issues };
      form.setError(path as FieldPath<V>, fieldError);
    } else unplaced.push(...messages);
  }
  return unplaced;
}

export const Form = FormProvider;

interface FieldContextValue {
  name: string;
}
const FieldContext = createContext<FieldContextValue | null>(null);
interface ItemContextValue {
  id: string;
  hasDescription: boolean;
  setHasDescription: (has: boolean) => void;
}
const ItemContext = createContext<ItemContextValue | null>(null);

export function FormField<V extends FieldValues, N extends FieldPath<V>, O = V>(
  props: ControllerProps<V, N, O>,
) {
  return (
    <FieldContext.Provider value={{ name: props.name }}>
      <Controller {...props} />
    </FieldContext.Provider>
  );
}

export function useFormField() {
  const field = useContext(FieldContext);
  const item = useContext(ItemContext);
  const { getFieldState } = useFormContext();
  const formState = useFormState({ name: field?.name ?? '' });
  if (!field || !item) throw new Error('useFormField belongs inside <FormField> and <FormItem>');
  const state = getFieldState(field.name, formState);
  const itemId = item.id;
  return {
    name: field.name,
    id: itemId,
    hasDescription: item.hasDescription,
    setHasDescription: item.setHasDescription,
    controlId: `${itemId}-control`,
    descriptionId: `${itemId}-description`,
    messageId: `${itemId}-message`,
    ...state,
  };
}

export function FormItem({ className, ...props }: ComponentProps<'div'>) {
  const id = useId();
  const [hasDescription, setHasDescription] = useState(false);
  return (
    <ItemContext.Provider value={{ id, hasDescription, setHasDescription }}>
      <div data-slot="form-item" className={cn('grid min-w-0 gap-1.5', className)} {...props} />
    </ItemContext.Provider>
  );
}

export function FormLabel({ className, ...props }: ComponentProps<typeof Label>) {
  const { controlId, error } = useFormField();
  return (
    <Label
      data-slot="form-label"
      data-error={!!error}
      className={cn('data-[error=true]:text-destructive', className)}
      htmlFor={controlId}
      {...props}
    />
  );
}

/** Wraps the input: gives it its id, aria-invalid and aria-describedby (description, then error). */
export function FormControl(props: ComponentProps<typeof Slot.Root>) {
  const { controlId, descriptionId, messageId, error, hasDescription } = useFormField();
  const describedBy = [hasDescription ? descriptionId : null, error ? messageId : null]
    .filter(Boolean)
    .join(' ');
  return (
    <Slot.Root
      data-slot="form-control"
      id={controlId}
      aria-describedby={describedBy || undefined}
      aria-invalid={error ? true : undefined}
      {...props}
    />
  );
}

export function FormDescription({ className, ...props }: ComponentProps<'div'>) {
  const { descriptionId, setHasDescription } = useFormField();
  useEffect(() => {
    setHasDescription(true);
    return () => setHasDescription(false);
  }, [setHasDescription]);
  return (
    <div
      data-slot="form-description"
      id={descriptionId}
      className={cn('text-sm text-muted-foreground', className)}
      {...props}
    />
  );
}

/** The field's error under the input (data-field-errors names the field, as ui/field.tsx does). */
export function FormMessage({ className, children, ...props }: ComponentProps<'p'>) {
  const { error, messageId, name } = useFormField();
  const say = useErrorText();
  const issues = (error as IssueError | undefined)?.issues;
  const body = error
    ? issues?.length
      ? issues.map(say.issue).join(' ')
      : String(error.message ?? '')
    : children;
  if (!body) return null;
  return (
    <p
      data-slot="form-message"
      id={messageId}
      data-field-errors={name}
      className={cn('text-sm text-destructive', className)}
      {...props}
    >
      {body}
    </p>
  );
}

/** The common case in one line: a labelled text input bound to `name`, with its hint and error. */
export function TextField<V extends FieldValues, O>({
  form,
  name,
  label,
  hint,
  ...input
}: {
  form: UseFormReturn<V, unknown, O>;
  name: FieldPath<V>;
  label: ReactNode;
  hint?: ReactNode;
} & Omit<ComponentProps<typeof Input>, 'name' | 'form'>) {
  return (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input {...input} {...field} value={(field.value as string | undefined) ?? ''} />
          </FormControl>
          {hint && <FormDescription>{hint}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

/**
 * The form-level failure above the fields (role="alert", data-testid="form-error"), on every form:
 * the message, the errors that belong to no field, and any extra help in `children`.
 */
export function FormError({
  error,
  children,
  className,
}: {
  error: DisplayError | string | null | undefined;
  children?: ReactNode;
  className?: string;
}) {
  const say = useErrorText();
  if (!error) return null;
  const shown = typeof error === 'string' ? null : say.error(error);
  const message = shown ? shown.message : (error as string);
  const general = shown?.fields[''] ?? [];
  return (
    <Alert variant="destructive" role="alert" data-testid="form-error" className={className}>
      <CircleAlert aria-hidden />
      <AlertDescription>
        <p className="font-medium">{message}</p>
        {general.length > 0 && (
          <ul className="m-0 list-disc pl-5">
            {general.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        )}
        {children}
      </AlertDescription>
    </Alert>
  );
}
