'use client';
import { useQuery } from '@tanstack/react-query';
import { usePathname, useRouter } from 'next/navigation';
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
  const pathname = usePathname();
  const { signedIn, me } = useMe();
  const id = me.data?.user.id;
  const prefs = useQuery({
    ...trpc.users.preferences.queryOptions({ id: id ?? '' }),
    enabled: signedIn && id !== undefined,
  });
  const language = prefs.data?.language;
  const followSystem = prefs.data?.followSystem.language;

  // Judged against the zone the page was rendered in, on every page: a refresh cut short by a client-side
  // navigation leaves the layout in the old zone while the cookie already names the new one, and a check
  // of the cookie alone would then never refresh again. One refresh per page and zone, so a server that
  // does not take the zone cannot make it loop.
  const refreshedFor = useRef<string | null>(null);
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (readCookie(TIME_ZONE_COOKIE) !== zone) writeCookie(TIME_ZONE_COOKIE, zone);
    if (zone === timeZone || refreshedFor.current === `${pathname} ${zone}`) return;
    refreshedFor.current = `${pathname} ${zone}`;
    router.refresh();
  }, [timeZone, pathname, router]);

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
