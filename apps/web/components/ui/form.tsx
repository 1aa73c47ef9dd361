'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { CircleAlert } from 'lucide-react';
import { useTranslations } from 'next-intl';
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
  type FieldPath,
  type FieldValues,
  FormProvider,
  type UseFormProps,
  type UseFormReturn,
  useForm,
  useFormContext,
  useFormState,
} from 'react-hook-form';
import type { z } from 'zod';
import { cn } from '../../lib/cn';
import type { DisplayError } from '../../lib/errors';
import { Alert, AlertDescription } from './alert';
import { Input } from './input';
import { Label } from './label';

/**
 * react-hook-form with a shared zod schema from @plenum/validators. zod's default messages come out in the
 * page's language; the schemas' own messages win, so `translate` may put those into words of the page
 * (the shared schemas' "required" always is).
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  options?: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> & {
    translate?: (message: string) => string;
  },
) {
  const t = useTranslations('common.validation');
  const { translate, ...rest } = options ?? {};
  const say = (message: string) =>
    message === 'required' ? t('required') : (translate?.(message) ?? message);
  // biome-ignore lint/suspicious/noExplicitAny: zodResolver's overloads do not see through the generic S
  const resolve = zodResolver(schema as any, { error: (issue) => zodMessage(t, issue) });
  return useForm<z.input<S>, unknown, z.output<S>>({
    resolver: (async (...args: Parameters<typeof resolve>) => {
      const result = await resolve(...args);
      return { ...result, errors: translateErrors(result.errors, say) };
    }) as never,
    // errors appear on submit, then follow the typing; validating on blur would move the layout under a
    // pointer that is about to click the submit button
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    ...rest,
  });
}

/** the resolver's errors with every message put through `say` (nested fields and arrays included) */
function translateErrors<E>(errors: E, say: (message: string) => string): E {
  if (!errors || typeof errors !== 'object') return errors;
  const out: Record<string, unknown> = Array.isArray(errors)
    ? ([] as unknown as Record<string, unknown>)
    : {};
  for (const [key, value] of Object.entries(errors)) {
    if (key === 'message' && typeof value === 'string') out[key] = say(value);
    else if (key === 'ref' || !value || typeof value !== 'object') out[key] = value;
    else out[key] = translateErrors(value, say);
  }
  return out as E;
}

/** zod's default messages in the page's language, for code that validates without a form (`error` map) */
export function useZodMessage() {
  const t = useTranslations('common.validation');
  return (issue: unknown) => zodMessage(t, issue);
}

type Translate = ReturnType<typeof useTranslations<'common.validation'>>;
interface Issue {
  code: string;
  origin?: string;
  minimum?: unknown;
  maximum?: unknown;
  input?: unknown;
  expected?: string;
}

function zodMessage(t: Translate, raw: unknown): string | undefined {
  const issue = raw as Issue;
  if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null))
    return t('required');
  if (issue.code === 'invalid_type' && issue.expected === 'number') return t('number');
  if (issue.code === 'too_small' && issue.origin === 'string')
    return Number(issue.minimum) === 1 ? t('required') : t('minLength', { min: Number(issue.minimum) });
  if (issue.code === 'too_big' && issue.origin === 'string')
    return t('maxLength', { max: Number(issue.maximum) });
  if (issue.code === 'too_small' && issue.origin === 'number')
    return t('min', { min: Number(issue.minimum) });
  if (issue.code === 'too_big' && issue.origin === 'number') return t('max', { max: Number(issue.maximum) });
  if (issue.code === 'invalid_format') return t('format');
  return undefined;
}

/** Server-side field errors (DisplayError.fields, keyed by path) onto the form's fields; returns the rest. */
export function setServerErrors<V extends FieldValues, O>(
  form: UseFormReturn<V, unknown, O>,
  error: DisplayError,
) {
  const names = Object.keys(form.getValues());
  const unplaced: string[] = [];
  for (const [path, messages] of Object.entries(error.fields)) {
    const root = path.split('.')[0] ?? '';
    if (path && names.includes(root))
      form.setError(path as FieldPath<V>, { type: 'server', message: messages.join(' ') });
    else unplaced.push(...messages);
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

/** The field's error under the input (data-field-errors names the field, as the older forms do). */
export function FormMessage({ className, children, ...props }: ComponentProps<'p'>) {
  const { error, messageId, name } = useFormField();
  const body = error ? String(error.message ?? '') : children;
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
 * The form-level failure above the fields (role="alert", data-testid="form-error" as the older forms):
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
  if (!error) return null;
  const message = typeof error === 'string' ? error : error.message;
  const general = typeof error === 'string' ? [] : (error.fields[''] ?? []);
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
