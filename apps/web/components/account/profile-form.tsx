'use client';
import type { AppRouter } from '@plenum/api';
import { updateUserInput } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useTranslations } from 'next-intl';
import { useMemo, useState } from 'react';
import { z } from 'zod';
import { type DisplayError, toDisplayError } from '../../lib/errors';
import { useTRPC } from '../../lib/trpc';
import { Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { Form, FormError, FormField, setServerErrors, TextField, useZodForm } from '../ui/form';
import { SocialLinksEditor } from './social-links-editor';
import { TextArea } from './text-area';

type User = inferRouterOutputs<AppRouter>['users']['get'];
/** the server's default MAX_BIO_LENGTH; a different configured limit is still enforced there */
const BIO_MAX = 500;

const blankToNull = (s: string) => (s.trim() ? s : null);

/**
 * The form holds strings and label/link rows; on submit they become PUT /users/{id}'s body and go through
 * the server's own schema, whose issues land on the field they belong to (every social-link issue on the
 * links editor).
 */
function profileFormSchema(id: string, words: { bioMax: string; linkLabels: string }) {
  return z
    .object({
      firstName: z.string(),
      lastName: z.string(),
      bio: z.string().refine((b) => [...b].length <= BIO_MAX, words.bioMax),
      phoneNumber: z.string(),
      dateOfBirth: z.string(),
      links: z.array(z.object({ key: z.string(), value: z.string() })),
    })
    .superRefine((v, ctx) => {
      const keys = v.links.filter((l) => l.key.trim() || l.value.trim()).map((l) => l.key.trim());
      if (new Set(keys).size !== keys.length)
        ctx.addIssue({ code: 'custom', path: ['links'], message: words.linkLabels });
    })
    .transform((v, ctx) => {
      const filled = v.links.filter((l) => l.key.trim() || l.value.trim());
      const parsed = updateUserInput.safeParse({
        id,
        firstName: v.firstName,
        lastName: v.lastName,
        bio: blankToNull(v.bio),
        phoneNumber: blankToNull(v.phoneNumber),
        dateOfBirth: v.dateOfBirth || null,
        socialLinks: Object.fromEntries(filled.map((l) => [l.key.trim(), l.value.trim()])),
      });
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) {
        const root = String(issue.path[0] ?? '');
        ctx.addIssue({
          code: 'custom',
          message: issue.message,
          path: root === 'socialLinks' ? ['links'] : issue.path.map(String),
        });
      }
      return z.NEVER;
    });
}

/** Edit one's own profile (PUT /users/{id}); validated with the server's own schema first. */
export function ProfileForm({ user }: { user: User }) {
  const t = useTranslations('account.profile');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<DisplayError | null>(null);
  const schema = useMemo(
    () =>
      profileFormSchema(user.id, {
        bioMax: t('bioMax', { max: BIO_MAX }),
        linkLabels: t('linkLabelsField'),
      }),
    [user.id, t],
  );
  const form = useZodForm(schema, {
    defaultValues: {
      firstName: user.firstName,
      lastName: user.lastName,
      bio: user.bio ?? '',
      phoneNumber: user.phoneNumber ?? '',
      dateOfBirth: user.dateOfBirth ?? '',
      links: Object.entries(user.socialLinks).map(([key, value]) => ({ key, value })),
    },
  });
  const update = useMutation(
    trpc.users.update.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(trpc.users.get.queryKey({ id: user.id }), saved);
        void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
      },
    }),
  );

  const onSubmit = form.handleSubmit(
    (input) => {
      setError(null);
      update.mutate(input, {
        onError: (err) => {
          const shown = toDisplayError(err);
          // the server names social-link issues by label (socialLinks.GitHub): they belong to the editor
          const links = Object.entries(shown.fields).filter(([k]) => k.startsWith('socialLinks'));
          if (links.length)
            form.setError('links', { type: 'server', message: links.flatMap(([, m]) => m).join(' ') });
          setServerErrors(form, shown);
          setError(shown);
        },
      });
    },
    () => {
      update.reset();
      setError({ message: t('correct'), fields: {} });
    },
  );

  return (
    <section aria-labelledby="edit-heading" className="grid gap-4">
      <h2 id="edit-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <Form {...form}>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate data-testid="profile-form">
          <FormError error={error} />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              form={form}
              name="firstName"
              label={t('firstName')}
              autoComplete="given-name"
              maxLength={100}
            />
            <TextField
              form={form}
              name="lastName"
              label={t('lastName')}
              autoComplete="family-name"
              maxLength={100}
            />
          </div>
          <FormField
            control={form.control}
            name="bio"
            render={({ field, fieldState }) => (
              <TextArea
                label={t('bio')}
                max={BIO_MAX}
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                errors={fieldState.error?.message ? [fieldState.error.message] : undefined}
              />
            )}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField form={form} name="phoneNumber" label={t('phone')} type="tel" autoComplete="tel" />
            <TextField form={form} name="dateOfBirth" label={t('birth')} type="date" autoComplete="bday" />
          </div>
          <FormField
            control={form.control}
            name="links"
            render={({ field, fieldState }) => (
              <SocialLinksEditor
                rows={field.value}
                onChange={field.onChange}
                errors={fieldState.error?.message ? [fieldState.error.message] : undefined}
              />
            )}
          />
          <Button type="submit" className="justify-self-start" disabled={update.isPending}>
            {update.isPending ? t('saving') : t('save')}
          </Button>
        </form>
      </Form>
      {update.isSuccess && !error && <Notice testId="profile-saved">{t('saved')}</Notice>}
    </section>
  );
}
