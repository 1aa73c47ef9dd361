'use client';
import type { AppRouter } from '@plenum/api';
import { updateUserInput } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { readable } from '../../lib/files/readable';
import { validate } from '../../lib/form';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert, Notice } from '../alert';
import { Field } from '../field';
import { Button } from '../ui/button';
import { type LinkRow, SocialLinksEditor } from './social-links-editor';
import { TextArea } from './text-area';

type User = inferRouterOutputs<AppRouter>['users']['get'];
/** the server's default MAX_BIO_LENGTH; a different configured limit is still enforced there */
const BIO_MAX = 500;

/** Edit one's own profile (PUT /users/{id}); validated with the server's own schema first. */
export function ProfileForm({ user }: { user: User }) {
  const t = useTranslations('account.profile');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({
    firstName: user.firstName,
    lastName: user.lastName,
    bio: user.bio ?? '',
    phoneNumber: user.phoneNumber ?? '',
    dateOfBirth: user.dateOfBirth ?? '',
  });
  const [links, setLinks] = useState<LinkRow[]>(
    Object.entries(user.socialLinks).map(([key, value]) => ({ key, value })),
  );
  const [error, setError] = useState<DisplayError | null>(null);
  const update = useMutation(
    trpc.users.update.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.users.get.queryKey({ id: user.id }), saved);
        void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
      },
      onError: (err) => setError(readable(err)),
    }),
  );

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    update.reset();
    const filled = links.filter((l) => l.key.trim() || l.value.trim());
    const keys = filled.map((l) => l.key.trim());
    if (new Set(keys).size !== keys.length)
      return setError({
        message: t('linkLabels'),
        fields: { socialLinks: [t('linkLabelsField')] },
      });
    const input = {
      id: user.id,
      firstName: form.firstName,
      lastName: form.lastName,
      bio: form.bio.trim() ? form.bio : null,
      phoneNumber: form.phoneNumber.trim() ? form.phoneNumber : null,
      dateOfBirth: form.dateOfBirth || null,
      socialLinks: Object.fromEntries(filled.map((l) => [l.key.trim(), l.value.trim()])),
    };
    const checked = validate(updateUserInput, input);
    if (!checked.ok) return setError(checked.error);
    if ([...form.bio].length > BIO_MAX)
      return setError({
        message: t('correct'),
        fields: { bio: [t('bioMax', { max: BIO_MAX })] },
      });
    update.mutate(checked.data);
  }

  const bind = (name: keyof typeof form) => ({
    name,
    value: form[name],
    errors: error?.fields[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });
  const linkErrors = Object.entries(error?.fields ?? {})
    .filter(([k]) => k.startsWith('socialLinks'))
    .flatMap(([, v]) => v);

  return (
    <section aria-labelledby="edit-heading" className="stack">
      <h2 id="edit-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <form className="stack" onSubmit={submit} noValidate data-testid="profile-form">
        <div className="row">
          <Field label={t('firstName')} autoComplete="given-name" maxLength={100} {...bind('firstName')} />
          <Field label={t('lastName')} autoComplete="family-name" maxLength={100} {...bind('lastName')} />
        </div>
        <TextArea label={t('bio')} max={BIO_MAX} {...bind('bio')} />
        <div className="row">
          <Field label={t('phone')} type="tel" autoComplete="tel" {...bind('phoneNumber')} />
          <Field label={t('birth')} type="date" autoComplete="bday" {...bind('dateOfBirth')} />
        </div>
        <SocialLinksEditor rows={links} onChange={setLinks} errors={linkErrors} />
        <Button type="submit" className="justify-self-start" disabled={update.isPending}>
          {update.isPending ? t('saving') : t('save')}
        </Button>
      </form>
      <ErrorAlert error={error} />
      {update.isSuccess && <Notice testId="profile-saved">{t('saved')}</Notice>}
    </section>
  );
}
