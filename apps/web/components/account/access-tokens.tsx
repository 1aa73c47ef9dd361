'use client';
import { createTokenInput } from '@plenum/validators';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { z } from 'zod';
import { useApiUrl } from '../../lib/api-url';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { Alert, AlertDescription } from '../ui/alert';
import { Button } from '../ui/button';
import { Checkbox } from '../ui/checkbox';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DateTime } from '../ui/date-time';
import { EmptyState } from '../ui/empty-state';
import {
  Form,
  FormControl,
  FormField,
  FormItem,
  FormLabel,
  setServerErrors,
  TextField,
  useZodForm,
} from '../ui/form';
import { QueryState } from '../ui/query-state';
import { CreatedToken } from './created-token';

/**
 * the token's name as the API checks it, the optional last day from an <input type="date"> (empty: the
 * API's 90 days), and "never expires", which has to be ticked on purpose
 */
const tokenForm = createTokenInput
  .pick({ name: true })
  .extend({ expires: z.string().optional(), never: z.boolean() });
/** a day → the end of that day in UTC, as the API wants an offset */
const endOfDay = (day: string | undefined) => (day ? `${day}T23:59:59Z` : undefined);

/** Personal access tokens for programs such as Kubo's remote pinning: create, list, revoke (after asking). */
export function AccessTokens() {
  const t = useTranslations('account.tokens');
  const trpc = useTRPC();
  const apiUrl = useApiUrl();
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const form = useZodForm(tokenForm, { defaultValues: { name: '', expires: '', never: false } });
  const never = form.watch('never');
  const list = useQuery(trpc.tokens.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
  const create = useMutation(trpc.tokens.create.mutationOptions({ onSuccess: refresh }));
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSuccess: refresh }));
  const failure = create.error ? readable(create.error) : null;

  return (
    <section aria-labelledby="tokens-heading" className="grid min-w-0 gap-4">
      <h2 id="tokens-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <p className="m-0 text-muted-foreground">
        {t('intro')} <code className="break-all">ipfs pin remote service add plenum {apiUrl} YOUR_TOKEN</code>
      </p>
      <Form {...form}>
        <form
          className="grid max-w-xl gap-3 sm:grid-cols-2"
          noValidate
          onSubmit={form.handleSubmit(({ name, expires, never }) => {
            const expiresAt = never ? 'never' : endOfDay(expires);
            create.mutate(
              { name, ...(expiresAt ? { expiresAt } : {}) },
              {
                onSuccess: () => form.reset(),
                onError: (err) => setServerErrors(form, readable(err)),
              },
            );
          })}
        >
          <TextField form={form} name="name" label={t('name')} maxLength={100} />
          <TextField form={form} name="expires" label={t('expires')} type="date" disabled={never} />
          <FormField
            control={form.control}
            name="never"
            render={({ field }) => (
              <FormItem className="flex items-center gap-2 sm:col-span-2">
                <FormControl>
                  <Checkbox checked={field.value} onCheckedChange={(c) => field.onChange(c === true)} />
                </FormControl>
                <FormLabel className="font-normal">{t('neverExpires')}</FormLabel>
              </FormItem>
            )}
          />
          <Button type="submit" className="justify-self-start" disabled={create.isPending}>
            {create.isPending ? t('creating') : t('create')}
          </Button>
        </form>
      </Form>
      {failure && (
        <Alert variant="destructive" role="alert" data-testid="form-error">
          <AlertDescription>{failure.message}</AlertDescription>
        </Alert>
      )}
      {create.data && <CreatedToken token={create.data.token} name={create.data.name} />}
      <QueryState query={list}>
        {(data) =>
          data.items.length === 0 ? (
            <EmptyState icon={KeyRound} title={t('empty')} testId="no-tokens" />
          ) : (
            <ul className="m-0 grid list-none gap-2 p-0" data-testid="tokens">
              {data.items.map((tok) => (
                <li
                  key={tok.id}
                  className="flex min-w-0 flex-wrap items-center justify-between gap-2 rounded-lg border bg-card p-3"
                >
                  <div className="grid min-w-0 gap-0.5">
                    <span className="min-w-0 break-words">
                      <strong>{tok.name}</strong> <code className="text-xs">{tok.prefix}…</code>
                    </span>
                    <span className="text-sm text-muted-foreground">
                      {t('created')} <DateTime value={tok.createdAt} />
                      {' · '}
                      {tok.expiresAt ? (
                        <>
                          {t('expiresOn')} <DateTime value={tok.expiresAt} />
                        </>
                      ) : (
                        t('never')
                      )}
                    </span>
                  </div>
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={t('revokeNamed', { name: tok.name })}
                    onClick={() => setRevoking({ id: tok.id, name: tok.name })}
                  >
                    {t('revoke')}
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open) setRevoking(null);
        }}
        destructive
        title={t('revokeTitle', { name: revoking?.name ?? '' })}
        description={t('revokeWhat')}
        confirmLabel={t('revoke')}
        onConfirm={() => (revoking ? revoke.mutateAsync({ id: revoking.id }) : undefined)}
      />
    </section>
  );
}
