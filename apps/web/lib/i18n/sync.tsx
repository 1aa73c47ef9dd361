'use client';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useLocale, useTimeZone } from 'next-intl';
import { useEffect, useRef } from 'react';
import { useTRPC } from '../trpc';
import { useMe } from '../use-auth';
import { readCookie, writeCookie } from './cookies';
import { DEFAULT_LOCALE, LOCALE_COOKIE, localeFromTag, TIME_ZONE_COOKIE } from './locale';

/**
 * Keeps the server's rendering in the language and time zone the page should have: the signed-in user's
 * chosen language (the cookie tells the server, then the page re-renders in it), the browser's languages
 * (Accept-Language: no cookie) while they have not chosen one (followSystem) and once signed out, and the
 * browser's time zone for dates.
 */
export function I18nSync() {
  const trpc = useTRPC();
  const router = useRouter();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const { signedIn, me } = useMe();
  const id = me.data?.user.id;
  const prefs = useQuery({
    ...trpc.users.preferences.queryOptions({ id: id ?? '' }),
    enabled: signedIn && id !== undefined,
  });
  const language = prefs.data?.language;
  const followSystem = prefs.data?.followSystem.language;

  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (readCookie(TIME_ZONE_COOKIE) === zone) return;
    writeCookie(TIME_ZONE_COOKIE, zone);
    if (zone !== timeZone) router.refresh();
  }, [timeZone, router]);

  useEffect(() => {
    if (!signedIn || language === undefined) return;
    if (followSystem) {
      // not chosen: the stored default must not replace the browser's language
      if (readCookie(LOCALE_COOKIE) === null) return;
      writeCookie(LOCALE_COOKIE, null);
      router.refresh();
      return;
    }
    const wanted = localeFromTag(language) ?? DEFAULT_LOCALE;
    if (readCookie(LOCALE_COOKIE) !== wanted) writeCookie(LOCALE_COOKIE, wanted);
    if (wanted !== locale) router.refresh();
  }, [signedIn, language, followSystem, locale, router]);

  // after a sign-out the browser's language applies again
  const wasSignedIn = useRef(false);
  useEffect(() => {
    if (signedIn) wasSignedIn.current = true;
    else if (wasSignedIn.current) {
      wasSignedIn.current = false;
      if (readCookie(LOCALE_COOKIE) !== null) {
        writeCookie(LOCALE_COOKIE, null);
        router.refresh();
      }
    }
  }, [signedIn, router]);
  return null;
}
