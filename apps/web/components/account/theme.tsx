'use client';
import { useQuery } from '@tanstack/react-query';
import { ThemeProvider as NextThemesProvider, useTheme } from 'next-themes';
import { type ReactNode, useEffect, useRef } from 'react';
import { getSessionToken } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { useMe } from '../../lib/use-auth';
import { THEME_KEY } from './theme-boot';

export type Theme = 'light' | 'dark';
/** what a person can pick: a theme, or the device's setting */
export type ThemeChoice = Theme | 'system';

/**
 * Dark mode is the `dark` class on <html> (app/globals.css), set by next-themes, which also writes
 * `data-theme` ("light" / "dark") for scripts and tests. The device's setting applies until the person
 * chooses; signed in, a choice stored in their preferences wins (ThemeSync, docs/users.md, "Preferences").
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  return (
    <NextThemesProvider
      attribute={['class', 'data-theme']}
      defaultTheme="system"
      enableSystem
      storageKey={THEME_KEY}
      disableTransitionOnChange
    >
      <RegisterSetter />
      {children}
    </NextThemesProvider>
  );
}

let setNextTheme: ((theme: string) => void) | null = null;

function RegisterSetter() {
  const { setTheme } = useTheme();
  useEffect(() => {
    setNextTheme = setTheme;
    return () => {
      if (setNextTheme === setTheme) setNextTheme = null;
    };
  }, [setTheme]);
  return null;
}

/**
 * Shows `theme` at once (null: the system's setting) and remembers it for the next load. Callable from
 * event handlers anywhere: the page changes in the same frame, and next-themes' state follows.
 */
export function applyTheme(theme: Theme | null) {
  const root = document.documentElement;
  const resolved = theme ?? (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  root.classList.remove('light', 'dark');
  root.classList.add(resolved);
  root.dataset.theme = resolved;
  root.style.colorScheme = resolved;
  if (setNextTheme) setNextTheme(theme ?? 'system');
  else {
    try {
      window.localStorage.setItem(THEME_KEY, theme ?? 'system');
    } catch {
      // storage disabled: the theme still applies to this page
    }
  }
}

/**
 * Keeps the page's theme equal to the signed-in user's stored preference: their choice, or the device's
 * setting while they have not chosen (followSystem), never the stored default over the device's dark mode.
 */
export function ThemeSync() {
  const trpc = useTRPC();
  const { signedIn, token, me } = useMe();
  const id = me.data?.user.id;
  const prefs = useQuery({
    ...trpc.users.preferences.queryOptions({ id: id ?? '' }),
    enabled: signedIn && id !== undefined,
  });
  const theme = prefs.data?.theme;
  const followSystem = prefs.data?.followSystem.theme;
  useEffect(() => {
    if (theme) applyTheme(followSystem ? null : theme);
  }, [theme, followSystem]);
  // signing out (here, in another tab, or a session that ended) hands the theme back to the system's setting;
  // a visitor who never signed in keeps what they chose in the header
  const hadSession = useRef(false);
  useEffect(() => {
    // (during hydration the token reads null although a session is stored: check the store itself)
    const stored = getSessionToken();
    if (token !== null || stored !== null) hadSession.current = true;
    else if (hadSession.current) {
      hadSession.current = false;
      applyTheme(null);
    }
  }, [token]);
  return null;
}
