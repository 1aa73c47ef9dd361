'use client';
import type { AppRouter } from '@plenum/api';
import { languageTag } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useTranslations } from 'next-intl';
import { type FormEvent, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert, Notice } from '../alert';
import { Field } from '../field';
import { Button } from '../ui/button';
import { Select } from '../ui/select';
import { applyTheme, type Theme } from './theme';
import { ThemeSwitch } from './theme-switch';

type Preferences = inferRouterOutputs<AppRouter>['users']['preferences'];

/** Theme (applied and saved at once), language, notifications and privacy (saved together). */
export function PreferencesForm({ userId, prefs }: { userId: string; prefs: Preferences }) {
  const t = useTranslations('account.preferences');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(prefs);
  const [error, setError] = useState<DisplayError | null>(null);
  const [savedAll, setSavedAll] = useState(false);
  const key = trpc.users.preferences.queryKey({ id: userId });
  const save = useMutation(
    trpc.users.updatePreferences.mutationOptions({
      onSuccess: (saved) => {
        queryClient.setQueryData(key, saved);
        void queryClient.invalidateQueries({ queryKey: trpc.users.get.queryKey({ id: userId }) });
      },
    }),
  );

  function setTheme(theme: Theme) {
    const before = draft.theme;
    setError(null);
    setDraft((d) => ({ ...d, theme }));
    applyTheme(theme);
    save.mutate(
      { id: userId, theme },
      {
        onError: (err) => {
          // not saved: show what is stored again
          applyTheme(before);
          setDraft((d) => ({ ...d, theme: before }));
          setError(readable(err));
        },
      },
    );
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    setSavedAll(false);
    const lang = languageTag.safeParse(draft.language.trim());
    if (!lang.success)
      return setError({
        message: t('correct'),
        fields: { language: [lang.error.issues[0]?.message ?? 'invalid'] },
      });
    const { theme: _theme, ...rest } = draft;
    save.mutate(
      { id: userId, ...rest, language: lang.data },
      { onSuccess: () => setSavedAll(true), onError: (err) => setError(readable(err)) },
    );
  }

  const check = (group: 'notifications' | 'privacy', name: string, label: string) => {
    const values = draft[group] as Record<string, boolean | string>;
    return (
      <label className="checkbox">
        <input
          type="checkbox"
          checked={values[name] === true}
          onChange={(e) => setDraft((d) => ({ ...d, [group]: { ...d[group], [name]: e.target.checked } }))}
        />
        {label}
      </label>
    );
  };

  return (
    <section aria-labelledby="prefs-heading" className="stack">
      <h2 id="prefs-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <ThemeSwitch value={draft.theme} onChange={setTheme} />
      <form className="stack" onSubmit={submit} noValidate data-testid="preferences-form">
        <Field
          label={t('language')}
          name="language"
          value={draft.language}
          hint={<span className="muted">{t('languageHint')}</span>}
          errors={error?.fields.language}
          onChange={(e) => setDraft((d) => ({ ...d, language: e.target.value }))}
        />
        <fieldset>
          <legend>{t('notifications')}</legend>
          {check('notifications', 'email', t('byEmail'))}
          {check('notifications', 'push', t('push'))}
          {check('notifications', 'sms', t('sms'))}
        </fieldset>
        <fieldset>
          <legend>{t('privacy')}</legend>
          <div className="field">
            <label htmlFor="profile-visibility">{t('visibility')}</label>
            <Select
              id="profile-visibility"
              value={draft.privacy.profileVisibility}
              onChange={(e) =>
                setDraft((d) => ({
                  ...d,
                  privacy: { ...d.privacy, profileVisibility: e.target.value as 'public' | 'private' },
                }))
              }
            >
              <option value="public">{t('public')}</option>
              <option value="private">{t('private')}</option>
            </Select>
          </div>
          {check('privacy', 'showEmail', t('showEmail'))}
          {check('privacy', 'showPhoneNumber', t('showPhone'))}
        </fieldset>
        <Button type="submit" className="justify-self-start" disabled={save.isPending}>
          {save.isPending ? t('saving') : t('save')}
        </Button>
      </form>
      <ErrorAlert error={error} />
      {savedAll && <Notice testId="preferences-saved">{t('saved')}</Notice>}
    </section>
  );
}
