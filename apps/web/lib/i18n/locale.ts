/** The languages the interface is translated into; the first is the fallback. */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Set by the client once it knows the signed-in user's language, so server rendering matches it. */
export const LOCALE_COOKIE = 'NEXT_LOCALE';
/** The browser's IANA time zone, set by the client, so times rendered on the server carry the same zone. */
export const TIME_ZONE_COOKIE = 'NEXT_TIME_ZONE';

/** A BCP 47 tag (the stored language preference, "de-AT", "pt-BR") → the interface language. */
export function localeFromTag(tag: string | null | undefined): Locale | null {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return LOCALES.find((l) => l === primary) ?? null;
}

/** The first supported language of an Accept-Language header, by its q weights. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.tag && r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const r of ranked) {
    const locale = localeFromTag(r.tag);
    if (locale) return locale;
  }
  return null;
}

/** A time zone name the runtime knows, or null. */
export function validTimeZone(zone: string | null | undefined): string | null {
  if (!zone) return null;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The interface language for a request: the cookie (the signed-in user's preference), else the browser's. */
export function requestLocale(
  cookie: string | null | undefined,
  acceptLanguage: string | null | undefined,
): Locale {
  return localeFromTag(cookie) ?? localeFromAcceptLanguage(acceptLanguage) ?? DEFAULT_LOCALE;
}
