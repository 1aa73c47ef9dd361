'use client';
import type { AppRouter } from '@plenum/api';
import { languageTag } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { z } from 'zod';
import { type DisplayError, toDisplayError } from '../../lib/errors';
import { readable } from '../../lib/files/readable';
import { LOCALES } from '../../lib/i18n/locale';
import { useTRPC } from '../../lib/trpc';
import { Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { Checkbox } from '../ui/checkbox';
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
} from '../ui/form';
import { Select } from '../ui/select';
import { applyTheme, type ThemeChoice } from './theme';
import { ThemeSwitch } from './theme-switch';

type Preferences = inferRouterOutputs<AppRouter>['users']['preferences'];

/** "system": follow the browser's languages (followSystem.language), else the chosen tag */
const SYSTEM = 'system';

/** Everything but the theme, which is saved the moment it is picked. */
const preferencesForm = z.object({
  language: z.union([z.literal(SYSTEM), languageTag]),
  notifications: z.object({ email: z.boolean(), push: z.boolean(), sms: z.boolean() }),
  privacy: z.object({
    profileVisibility: z.enum(['public', 'private']),
    showEmail: z.boolean(),
    showPhoneNumber: z.boolean(),
  }),
});
type CheckName = 'notifications.email' | 'privacy.showEmail' | 'privacy.showPhoneNumber';

/** Theme (applied and saved at once), language, notifications and privacy (saved together). */
export function PreferencesForm({ userId, prefs }: { userId: string; prefs: Preferences }) {
  const t = useTranslations('account.preferences');
  const names = useTranslations('shell.language');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [theme, setThemeShown] = useState<ThemeChoice>(prefs.followSystem.theme ? 'system' : prefs.theme);
  const [error, setError] = useState<DisplayError | null>(null);
  const [savedAll, setSavedAll] = useState(false);
  const form = useZodForm(preferencesForm, {
    defaultValues: {
      language: prefs.followSystem.language ? SYSTEM : prefs.language,
      notifications: prefs.notifications,
      privacy: prefs.privacy,
    },
  });
  // a tag stored before the select existed ("pt-BR", "de-AT") stays choosable as it is
  const storedOther =
    !prefs.followSystem.language && !(LOCALES as readonly string[]).includes(prefs.language);
  const key = trpc.users.preferences.queryKey({ id: userId });
  const save = useMutation(
    trpc.users.updatePreferences.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(key, saved);
        void queryClient.invalidateQueries({ queryKey: trpc.users.get.queryKey({ id: userId }) });
      },
    }),
  );

  function setTheme(next: ThemeChoice) {
    const before = theme;
    setError(null);
    setThemeShown(next);
    applyTheme(next === 'system' ? null : next);
    save.mutate(
      next === 'system' ? { id: userId, followSystem: { theme: true } } : { id: userId, theme: next },
      {
        onError: (err) => {
          // not saved: show what is stored again
          applyTheme(before === 'system' ? null : before);
          setThemeShown(before);
          setError(readable(err));
        },
      },
    );
  }

  const onSubmit = form.handleSubmit(
    ({ language, ...values }) => {
      setError(null);
      setSavedAll(false);
      save.mutate(
        language === SYSTEM
          ? { id: userId, ...values, followSystem: { language: true } }
          : { id: userId, ...values, language },
        {
          onSuccess: () => setSavedAll(true),
          onError: (err) => {
            const shown = toDisplayError(err);
            setServerErrors(form, shown);
            setError(shown);
          },
        },
      );
    },
    () => {
      setSavedAll(false);
      setError({ message: t('correct'), fields: {} });
    },
  );

  const check = (name: CheckName, label: string) => (
    <FormField
      control={form.control}
      name={name}
      render={({ field }) => (
        <FormItem className="flex items-center gap-2">
          <FormControl>
            <Checkbox checked={field.value} onCheckedChange={(c) => field.onChange(c === true)} />
          </FormControl>
          <FormLabel className="font-normal">{label}</FormLabel>
        </FormItem>
      )}
    />
  );

  return (
    <section aria-labelledby="prefs-heading" className="grid gap-4">
      <h2 id="prefs-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <ThemeSwitch value={theme} onChange={setTheme} />
      <Form {...form}>
        <form className="grid gap-4" onSubmit={onSubmit} noValidate data-testid="preferences-form">
          <FormError error={error} />
          <FormField
            control={form.control}
            name="language"
            render={({ field }) => (
              <FormItem className="max-w-xs">
                <FormLabel>{t('language')}</FormLabel>
                <FormControl>
                  <Select {...field}>
                    <option value={SYSTEM}>{t('languageSystem')}</option>
                    {LOCALES.map((l) => (
                      <option key={l} value={l} lang={l}>
                        {names(l)}
                      </option>
                    ))}
                    {storedOther && <option value={prefs.language}>{prefs.language}</option>}
                  </Select>
                </FormControl>
                <FormDescription>{t('languageHint')}</FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          <fieldset className="grid gap-2">
            <legend className="mb-1 font-medium">{t('notifications')}</legend>
            {/* push and SMS are not sent yet: their stored switches stay as they are, unshown */}
            {check('notifications.email', t('byEmail'))}
          </fieldset>
          <fieldset className="grid gap-2">
            <legend className="mb-1 font-medium">{t('privacy')}</legend>
            <FormField
              control={form.control}
              name="privacy.profileVisibility"
              render={({ field }) => (
                <FormItem className="max-w-xs">
                  <FormLabel>{t('visibility')}</FormLabel>
                  <FormControl>
                    <Select {...field}>
                      <option value="public">{t('public')}</option>
                      <option value="private">{t('private')}</option>
                    </Select>
                  </FormControl>
                  <FormMessage />
                </FormItem>
              )}
            />
            {check('privacy.showEmail', t('showEmail'))}
            {check('privacy.showPhoneNumber', t('showPhone'))}
          </fieldset>
          <Button type="submit" className="justify-self-start" disabled={save.isPending}>
            {save.isPending ? t('saving') : t('save')}
          </Button>
        </form>
      </Form>
      {savedAll && <Notice testId="preferences-saved">{t('saved')}</Notice>}
    </section>
  );
}
