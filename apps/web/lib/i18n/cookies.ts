/** Client-side cookie helpers for the locale and time-zone cookies (read by i18n/request.ts). */
export function readCookie(name: string): string | null {
  const hit = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : null;
}

export function writeCookie(name: string, value: string | null) {
  // biome-ignore lint/suspicious/noDocumentCookie: two small first-party cookies; the Cookie Store API is not in every browser yet
  document.cookie =
    value === null
      ? `${name}=; path=/; max-age=0; samesite=lax`
      : `${name}=${encodeURIComponent(value)}; path=/; max-age=31536000; samesite=lax`;
}
