'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { readable } from '../../lib/files/readable';
import { setSessionToken } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { Button } from '../ui/button';
import { Field } from '../ui/field';
import { FormError } from '../ui/form';
import { applyTheme } from './theme';

/**
 * Soft-deletes the account after an explicit confirmation. When another part of Plenum blocks it
 * (409, e.g. the owner of an ACTIVE DAO), the server's reasons are listed.
 */
export function DeleteAccount({ userId, email }: { userId: string; email: string }) {
  const t = useTranslations('account.delete');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useMutation(
    trpc.users.delete.mutationOptions({
      onSuccess: () => {
        setSessionToken(null);
        applyTheme(null);
        void queryClient.resetQueries();
        router.push('/');
      },
    }),
  );
  const confirmed = typed.trim().toLowerCase() === email.toLowerCase();

  return (
    <section
      aria-labelledby="delete-heading"
      className="grid gap-3 rounded-xl border border-destructive/60 p-4"
    >
      <h2 id="delete-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <p>{t('what')}</p>
      {!open ? (
        <Button variant="destructive" className="justify-self-start" onClick={() => setOpen(true)}>
          {t('start')}
        </Button>
      ) : (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            if (confirmed) remove.mutate({ id: userId });
          }}
        >
          <Field
            label={t('typeEmail', { email })}
            name="confirmEmail"
            type="text"
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="destructive" disabled={!confirmed || remove.isPending}>
              {remove.isPending ? t('deleting') : t('confirm')}
            </Button>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              {t('cancel')}
            </Button>
          </div>
        </form>
      )}
      {remove.isError && <FormError error={readable(remove.error)} />}
    </section>
  );
}
