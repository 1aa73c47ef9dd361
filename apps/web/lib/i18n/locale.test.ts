import { describe, expect, it } from 'vitest';
import { localeFromAcceptLanguage, localeFromTag, requestLocale, validTimeZone } from './locale';

describe('interface language', () => {
  it('maps a stored BCP 47 preference: de* is German, other supported tags by their language', () => {
    expect(localeFromTag('de')).toBe('de');
    expect(localeFromTag('de-AT')).toBe('de');
    expect(localeFromTag('DE_ch')).toBe('de');
    expect(localeFromTag('en-GB')).toBe('en');
    expect(localeFromTag('pt-BR')).toBeNull();
    expect(localeFromTag('')).toBeNull();
    expect(localeFromTag(undefined)).toBeNull();
  });

  it('reads Accept-Language by weight and skips unsupported languages', () => {
    expect(localeFromAcceptLanguage('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(localeFromAcceptLanguage('fr-FR,fr;q=0.9,de;q=0.7,en;q=0.8')).toBe('en');
    expect(localeFromAcceptLanguage('en;q=0.1, de;q=0.5')).toBe('de');
    expect(localeFromAcceptLanguage('fr, *;q=0')).toBeNull();
    expect(localeFromAcceptLanguage('de;q=0')).toBeNull();
    expect(localeFromAcceptLanguage(null)).toBeNull();
  });

  it('prefers the cookie set from the preference over the browser, and falls back to English', () => {
    expect(requestLocale('de', 'en-US,en')).toBe('de');
    expect(requestLocale('en', 'de')).toBe('en');
    expect(requestLocale(undefined, 'de-CH')).toBe('de');
    expect(requestLocale('xx', 'fr')).toBe('en');
  });

  it('accepts only time zones the runtime knows', () => {
    expect(validTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(validTimeZone('Mars/Olympus')).toBeNull();
    expect(validTimeZone('')).toBeNull();
  });
});
