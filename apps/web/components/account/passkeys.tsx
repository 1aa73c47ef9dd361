'use client';
import { passkeyName } from '@plenum/validators';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { z } from 'zod';
import { type DisplayError, toDisplayError } from '../../lib/errors';
import { createPasskey, passkeyBrowserProblem } from '../../lib/passkeys';
import { useTRPC } from '../../lib/trpc';
import { Notice } from '../ui/alert';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DateTime } from '../ui/date-time';
import { Form, FormError, TextField, useZodForm } from '../ui/form';
import { QueryState } from '../ui/query-state';

const addSchema = z.object({ name: passkeyName });

/**
 * "Passkeys" on the Security tab (docs/accounts.md, "Passkeys"): the account's passkeys, adding one under
 * a name (the browser's own prompt makes it), removing one after a confirmation.
 */
export function Passkeys() {
  const t = useTranslations('account.passkeys');
  const tb = useTranslations('auth.passkey.browser');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.auth.passkeys.queryOptions());
  const [error, setError] = useState<DisplayError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const options = useMutation(trpc.auth.passkeyRegisterOptions.mutationOptions());
  const register = useMutation(trpc.auth.passkeyRegister.mutationOptions());
  const remove = useMutation(trpc.auth.deletePasskey.mutationOptions());
  const form = useZodForm(addSchema, { defaultValues: { name: '' } });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.auth.passkeys.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.auth.sessions.queryKey() }),
    ]);

  const add = form.handleSubmit(async ({ name }) => {
    setError(null);
    setNotice(null);
    setBusy(true);
    try {
      const hadNone = (list.data?.items.length ?? 0) === 0;
      const optionsJSON = await options.mutateAsync({ name });
      const response = await createPasskey(optionsJSON);
      const added = await register.mutateAsync({ response, name });
      form.reset({ name: '' });
      setNotice(hadNone ? t('addedFirst', { name: added.name }) : t('added', { name: added.name }));
      await refresh();
    } catch (err) {
      const problem = passkeyBrowserProblem(err);
      setError(problem ? { message: tb(problem), fields: {} } : toDisplayError(err));
    } finally {
      setBusy(false);
    }
  });

  return (
    <section aria-labelledby="passkeys-heading" className="grid gap-4" data-testid="passkeys">
      <h2 id="passkeys-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <p className="m-0 max-w-2xl text-sm text-muted-foreground">{t('lead')}</p>
      {notice && <Notice testId="passkeys-notice">{notice}</Notice>}
      <FormError error={error} />
      <QueryState query={list}>
        {(data) =>
          data.items.length === 0 ? (
            <p className="m-0 text-sm" data-testid="no-passkeys">
              {t('none')}
            </p>
          ) : (
            <ul className="m-0 grid list-none gap-2 p-0" aria-label={t('listLabel')}>
              {data.items.map((p) => (
                <li
                  key={p.id}
                  className="flex min-w-0 flex-wrap items-center justify-between gap-2 rounded-lg border bg-card p-3"
                  data-testid="passkey"
                >
                  <div className="grid min-w-0 gap-0.5">
                    <span className="flex flex-wrap items-center gap-2">
                      <KeyRound aria-hidden className="size-4" />
                      <strong>{p.name}</strong>
                      {p.backedUp && <Badge variant="secondary">{t('synced')}</Badge>}
                    </span>
                    <span className="text-sm text-muted-foreground">
                      {t('addedOn')} <DateTime value={p.createdAt} /> ·{' '}
                      {p.lastUsedAt ? (
                        <>
                          {t('lastUsed')} <DateTime value={p.lastUsedAt} relativeOnly />
                        </>
                      ) : (
                        t('neverUsed')
                      )}
                    </span>
                  </div>
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={t('removeNamed', { name: p.name })}
                    onClick={() => {
                      setNotice(null);
                      setRemoving({ id: p.id, name: p.name });
                    }}
                  >
                    {t('remove')}
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <Form {...form}>
        <form onSubmit={add} noValidate className="flex max-w-xl flex-wrap items-end gap-2">
          <div className="min-w-48 flex-1">
            <TextField
              form={form}
              name="name"
              label={t('nameLabel')}
              placeholder={t('namePlaceholder')}
              required
            />
          </div>
          <Button type="submit" disabled={busy}>
            {busy ? t('adding') : t('add')}
          </Button>
        </form>
      </Form>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        destructive
        title={t('removeTitle', { name: removing?.name ?? '' })}
        description={t('removeWhat')}
        confirmLabel={t('remove')}
        onConfirm={async () => {
          if (!removing) return;
          setError(null);
          try {
            await remove.mutateAsync({ id: removing.id });
          } catch (err) {
            // the dialog closes; the page says why in its own words
            if (toDisplayError(err).reason !== 'LAST_SIGN_IN_METHOD') throw err;
            setError({ message: t('lastMethod'), fields: {} });
            return;
          }
          setNotice(t('removed', { name: removing.name }));
          await refresh();
        }}
      />
    </section>
  );
}
