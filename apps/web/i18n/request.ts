import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { cookies, headers } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import {
  DEFAULT_LOCALE,
  LOCALE_COOKIE,
  type Locale,
  requestLocale,
  TIME_ZONE_COOKIE,
  validTimeZone,
} from '../lib/i18n/locale';

type Messages = Record<string, unknown>;
const MESSAGES_DIR = path.join(process.cwd(), 'messages');
const cache = new Map<Locale, Promise<Messages>>();

/**
 * Every messages/<locale>/<namespace>.json, merged as { <namespace>: {...} }: a new area adds its own
 * file and nothing else (messages/README.md). Missing German strings fall back to the English ones.
 */
async function readLocale(locale: Locale): Promise<Messages> {
  const dir = path.join(MESSAGES_DIR, locale);
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
  const entries = await Promise.all(
    files.map(async (f) => [
      f.slice(0, -'.json'.length),
      JSON.parse(await readFile(path.join(dir, f), 'utf8')),
    ]),
  );
  return Object.fromEntries(entries);
}

function deepMerge(base: Messages, over: Messages): Messages {
  const out: Messages = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] =
      v && typeof v === 'object' && b && typeof b === 'object' ? deepMerge(b as Messages, v as Messages) : v;
  }
  return out;
}

export async function loadMessages(locale: Locale): Promise<Messages> {
  const load = async () => {
    const own = await readLocale(locale);
    return locale === DEFAULT_LOCALE ? own : deepMerge(await readLocale(DEFAULT_LOCALE), own);
  };
  // the files are part of the build: read once per process in production, on every request in development
  if (process.env.NODE_ENV !== 'production') return load();
  let cached = cache.get(locale);
  if (!cached) {
    cached = load();
    cache.set(locale, cached);
  }
  return cached;
}

export default getRequestConfig(async () => {
  const [jar, head] = await Promise.all([cookies(), headers()]);
  const locale = requestLocale(jar.get(LOCALE_COOKIE)?.value, head.get('accept-language'));
  return {
    locale,
    timeZone: validTimeZone(jar.get(TIME_ZONE_COOKIE)?.value) ?? 'UTC',
    messages: await loadMessages(locale),
  };
});
