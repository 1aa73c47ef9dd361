'use client';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getSessionToken } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { useMe } from '../../lib/use-auth';
import { THEME_KEY } from './theme-boot';

export type Theme = 'light' | 'dark';

/**
 * The theme is a server-side preference; the page shows it as `data-theme` on <html> (globals.css
 * switches its colours on it). Without one (signed out) the system's light/dark setting applies.
 */
export function applyTheme(theme: Theme | null) {
  const root = document.documentElement;
  if (theme) root.dataset.theme = theme;
  else delete root.dataset.theme;
  try {
    if (theme) window.localStorage.setItem(THEME_KEY, theme);
    else window.localStorage.removeItem(THEME_KEY);
  } catch {
    // storage disabled: the theme still applies to this page
  }
}

/** Keeps <html data-theme> equal to the signed-in user's stored preference. */
export function ThemeSync() {
  const trpc = useTRPC();
  const { signedIn, token, me } = useMe();
  const id = me.data?.user.id;
  const prefs = useQuery({
    ...trpc.users.preferences.queryOptions({ id: id ?? '' }),
    enabled: signedIn && id !== undefined,
  });
  const theme = prefs.data?.theme;
  useEffect(() => {
    if (theme) applyTheme(theme);
  }, [theme]);
  // signed out: back to the system's setting
  useEffect(() => {
    // (during hydration the token reads null although a session is stored: check the store itself)
    if (token === null && getSessionToken() === null) applyTheme(null);
  }, [token]);
  return null;
}
