'use client';
import type { AppRouter } from '@plenum/api';
import { languageTag } from '@plenum/validators';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { type FormEvent, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { readable } from '../../lib/files/readable';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert, Notice } from '../alert';
import { Field } from '../field';
import { applyTheme, type Theme } from './theme';
import { ThemeSwitch } from './theme-switch';

type Preferences = inferRouterOutputs<AppRouter>['users']['preferences'];

/** Theme (applied and saved at once), language, notifications and privacy (saved together). */
export function PreferencesForm({ userId, prefs }: { userId: string; prefs: Preferences }) {
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
        message: 'Please correct the highlighted fields.',
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
      <h2 id="prefs-heading">Preferences</h2>
      <ThemeSwitch value={draft.theme} onChange={setTheme} />
      <form className="stack" onSubmit={submit} noValidate data-testid="preferences-form">
        <Field
          label="Language"
          name="language"
          value={draft.language}
          hint={<span className="muted">A language tag such as en, de or pt-BR.</span>}
          errors={error?.fields.language}
          onChange={(e) => setDraft((d) => ({ ...d, language: e.target.value }))}
        />
        <fieldset>
          <legend>Notifications</legend>
          {check('notifications', 'email', 'By email')}
          {check('notifications', 'push', 'Push notifications')}
          {check('notifications', 'sms', 'By SMS')}
        </fieldset>
        <fieldset>
          <legend>Privacy</legend>
          <div className="field">
            <label htmlFor="profile-visibility">Profile visibility</label>
            <select
              id="profile-visibility"
              value={draft.privacy.profileVisibility}
              onChange={(e) =>
                setDraft((d) => ({
                  ...d,
                  privacy: { ...d.privacy, profileVisibility: e.target.value as 'public' | 'private' },
                }))
              }
            >
              <option value="public">Public: anyone can see my profile</option>
              <option value="private">Private: only I can see it</option>
            </select>
          </div>
          {check('privacy', 'showEmail', 'Show my email address')}
          {check('privacy', 'showPhoneNumber', 'Show my phone number')}
        </fieldset>
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save preferences'}
        </button>
      </form>
      <ErrorAlert error={error} />
      {savedAll && <Notice testId="preferences-saved">Your preferences were saved.</Notice>}
    </section>
  );
}
