'use client';
import { passwordResetConfirmInput } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleCheck } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { type DisplayError, toDisplayError } from '../lib/errors';
import { useTRPC } from '../lib/trpc';
import { AuthPanel } from './auth-page';
import { PasswordHints } from './password-hints';
import { Alert, AlertDescription } from './ui/alert';
import { Button } from './ui/button';
import {
  Form,
  FormControl,
  FormDescription,
  FormError,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
  setServerErrors,
  useZodForm,
} from './ui/form';
import { Input } from './ui/input';

/** reasons that mean the link itself is spent: only a new link helps */
const LINK_PROBLEMS = new Set(['RESET_TOKEN_INVALID', 'RESET_TOKEN_USED', 'RESET_TOKEN_EXPIRED']);

/** Landing page of the mailed link: a new password (with the live policy hints) for the token. */
export function ResetPasswordForm({ token }: { token: string | null }) {
  const t = useTranslations('auth');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const reset = useMutation(
    trpc.auth.resetPassword.mutationOptions({
      // every session of the account ended: whatever this browser held is re-checked
      onSuccess: () => void queryClient.resetQueries(),
    }),
  );
  const [error, setError] = useState<DisplayError | null>(null);
  const form = useZodForm(passwordResetConfirmInput, {
    defaultValues: { token: token ?? '', newPassword: '' },
  });
  const password = form.watch('newPassword') ?? '';

  if (!token)
    return (
      <FormError error={t('reset.noToken')}>
        <p>
          {t('reset.openExactly')} <Link href="/forgot-password">{t('reset.askNew')}</Link>.
        </p>
      </FormError>
    );
  if (reset.data)
    return (
      <Alert variant="success" role="status" data-testid="password-reset">
        <CircleCheck aria-hidden />
        <AlertDescription>
          <p>{reset.data.message}</p>
          <p>
            {t('reset.signedOutEverywhere')} <Link href="/sign-in">{t('reset.signIn')}</Link>
          </p>
        </AlertDescription>
      </Alert>
    );

  const onSubmit = form.handleSubmit(
    (values) => {
      setError(null);
      reset.mutate(values, {
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
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={t('reset.form')}>
          <FormError error={error}>
            {error?.reason && LINK_PROBLEMS.has(error.reason) && (
              <p>
                <Link href="/forgot-password">{t('reset.askNewLink')}</Link>.
              </p>
            )}
          </FormError>
          <FormField
            control={form.control}
            name="newPassword"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('fields.newPassword')}</FormLabel>
                <FormControl>
                  <Input {...field} type="password" autoComplete="new-password" required />
                </FormControl>
                <FormDescription>
                  <PasswordHints password={password} />
                </FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          <Button type="submit" disabled={reset.isPending} className="w-full">
            {reset.isPending ? t('reset.saving') : t('reset.submit')}
          </Button>
        </form>
      </Form>
    </AuthPanel>
  );
}
