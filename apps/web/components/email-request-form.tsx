'use client';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import type { z } from 'zod';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { AuthPanel } from './auth-page';
import { Alert, AlertDescription } from './ui/alert';
import { Button } from './ui/button';
import { Form, FormError, setServerErrors, TextField, useZodForm } from './ui/form';

/** The part of a react-query mutation the form uses: it sends `{ email }` and shows the answer's message. */
interface EmailMutation {
  mutate: (values: { email: string }, options: { onError: (err: unknown) => void }) => void;
  data?: { message: string } | undefined;
  isPending: boolean;
}

/**
 * One e-mail field that asks the API to send a mail (a reset link, a new verification link). The API
 * answers the same for any address (no enumeration), so the form shows that answer as it is.
 */
export function EmailRequestForm({
  schema,
  mutation,
  defaultEmail,
  labels,
  doneTestId,
}: {
  schema: z.ZodType<{ email: string }, { email: string }>;
  mutation: EmailMutation;
  defaultEmail?: string;
  labels: { form: string; submit: string; sending: string };
  doneTestId: string;
}) {
  const t = useTranslations('auth');
  const [error, setError] = useState<DisplayError | null>(null);
  const form = useZodForm(schema, { defaultValues: { email: defaultEmail ?? '' } });

  const onSubmit = form.handleSubmit(
    (values) => {
      setError(null);
      mutation.mutate(values, {
        onError: (err) => {
          const shown = toDisplayError(err);
          setServerErrors(form, shown);
          setError(shown);
        },
      });
    },
    () => setError({ message: t('fixFields'), fields: {} }),
  );

  return (
    <AuthPanel>
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={labels.form}>
          {mutation.data && (
            <Alert variant="success" role="status" data-testid={doneTestId}>
              <AlertDescription>{mutation.data.message}</AlertDescription>
            </Alert>
          )}
          <FormError error={error} />
          <TextField
            form={form}
            name="email"
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            required
          />
          <Button type="submit" disabled={mutation.isPending} className="w-full">
            {mutation.isPending ? labels.sending : labels.submit}
          </Button>
        </form>
      </Form>
    </AuthPanel>
  );
}
