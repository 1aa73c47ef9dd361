import { preferencesPatch, updateUserInput } from '@plenum/validators';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, effectivePreferences, type Preferences } from '../accounts/serialize';
import { mergePreferences, storedPreferences } from './preferences';

const defaults = (): Preferences => structuredClone(DEFAULT_PREFERENCES) as unknown as Preferences;

describe('preferences deep merge', () => {
  it('changes only the given leaves and keeps every sibling', () => {
    const merged = mergePreferences(defaults(), {
      notifications: { push: true },
      privacy: { showEmail: true },
    });
    expect(merged).toEqual({
      theme: 'light',
      language: 'en',
      followSystem: { theme: true, language: true },
      notifications: { email: true, push: true, sms: false },
      privacy: { profileVisibility: 'public', showEmail: true, showPhoneNumber: false },
    });
  });

  it('applies successive patches cumulatively and leaves the input untouched', () => {
    const start = defaults();
    const a = mergePreferences(start, { theme: 'dark' });
    const b = mergePreferences(a, { notifications: { sms: true }, language: 'pt-br' });
    expect(b).toMatchObject({ theme: 'dark', language: 'pt-BR', notifications: { email: true, sms: true } });
    expect(start).toEqual(defaults());
  });

  it('treats an empty patch and undefined leaves as no change', () => {
    expect(mergePreferences(defaults(), {})).toEqual(defaults());
    expect(mergePreferences(defaults(), { notifications: { email: undefined } })).toEqual(defaults());
  });

  it('keeps profileVisibility out of the JSON: the user field is the one truth', () => {
    const merged = mergePreferences(defaults(), { privacy: { profileVisibility: 'private' } });
    const stored = storedPreferences(merged);
    expect(stored.profileVisibility).toBe('private');
    expect(stored.preferences.privacy).toEqual({ showEmail: false, showPhoneNumber: false });
    // reading back takes the field, whatever stale value a JSON might carry
    const read = effectivePreferences({
      preferences: {
        ...stored.preferences,
        privacy: { ...stored.preferences.privacy, profileVisibility: 'public' },
      },
      profileVisibility: 'private',
    });
    expect(read.privacy.profileVisibility).toBe('private');
  });
});

describe('theme and language follow the device until chosen', () => {
  it('stores no theme or language before a choice, and reads their absence as followSystem', () => {
    const merged = mergePreferences(defaults(), { notifications: { sms: true } });
    const stored = storedPreferences(merged);
    expect(stored.preferences).not.toHaveProperty('theme');
    expect(stored.preferences).not.toHaveProperty('language');
    expect(
      effectivePreferences({ preferences: stored.preferences, profileVisibility: 'public' }),
    ).toMatchObject({
      theme: 'light',
      language: 'en',
      followSystem: { theme: true, language: true },
    });
    // a row written before followSystem existed holds both: they count as chosen
    expect(
      effectivePreferences({ preferences: { theme: 'light', language: 'en' }, profileVisibility: 'public' })
        .followSystem,
    ).toEqual({ theme: false, language: false });
  });

  it('a value is a choice; followSystem true hands it back (and wins over a value in the same patch)', () => {
    const chosen = mergePreferences(defaults(), { theme: 'dark', language: 'de' });
    expect(chosen).toMatchObject({
      theme: 'dark',
      language: 'de',
      followSystem: { theme: false, language: false },
    });
    expect(storedPreferences(chosen).preferences).toMatchObject({ theme: 'dark', language: 'de' });
    const back = mergePreferences(chosen, { followSystem: { theme: true }, language: 'en', theme: 'dark' });
    expect(back).toMatchObject({
      theme: 'light',
      language: 'en',
      followSystem: { theme: true, language: false },
    });
    expect(storedPreferences(back).preferences).not.toHaveProperty('theme');
    // false without a value makes the shown default the choice
    expect(mergePreferences(defaults(), { followSystem: { language: false } }).followSystem).toEqual({
      theme: true,
      language: false,
    });
  });
});

describe('preferences validation', () => {
  const ok = (v: unknown) => preferencesPatch.safeParse(v).success;
  it('accepts partial, valid patches', () => {
    expect(ok({})).toBe(true);
    expect(ok({ theme: 'dark' })).toBe(true);
    expect(ok({ language: 'zh-Hant-TW' })).toBe(true);
    expect(ok({ privacy: { profileVisibility: 'private' } })).toBe(true);
    expect(ok({ followSystem: { theme: true, language: false } })).toBe(true);
    expect(ok({ followSystem: { theme: 'yes' } })).toBe(false);
    expect(ok({ followSystem: { colour: true } })).toBe(false);
  });
  it('refuses values outside the allowed sets', () => {
    expect(ok({ theme: 'blue' })).toBe(false);
    expect(ok({ language: 'not a tag!' })).toBe(false);
    expect(ok({ language: '' })).toBe(false);
    expect(ok({ notifications: { email: 'yes' } })).toBe(false);
    expect(ok({ privacy: { profileVisibility: 'friends' } })).toBe(false);
  });
  it('refuses unknown keys at every depth', () => {
    expect(ok({ fontSize: 12 })).toBe(false);
    expect(ok({ notifications: { fax: true } })).toBe(false);
    expect(ok({ privacy: { showAddress: true } })).toBe(false);
  });
});

describe('profile update validation', () => {
  const id = '6f1c7a52-3c1e-4f43-9f57-0c4c2f1b2a10';
  const issues = (v: Record<string, unknown>) => {
    const r = updateUserInput.safeParse({ id, ...v });
    return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
  };
  it('accepts the profile fields', () => {
    expect(
      issues({
        firstName: 'Ada',
        phoneNumber: '+44 (20) 7946-0958',
        dateOfBirth: '1915-12-10',
        socialLinks: { github: 'https://github.com/ada' },
      }),
    ).toEqual([]);
  });
  it('refuses fields a user may not set here', () => {
    for (const field of ['email', 'status', 'role', 'emailVerified', 'passwordHash', 'avatarUrl'])
      expect(issues({ [field]: 'x' }).length, field).toBeGreaterThan(0);
  });
  it('checks the phone pattern, the date and the social links bounds', () => {
    expect(issues({ phoneNumber: '555-CALL-NOW' })).toEqual(['phoneNumber']);
    expect(issues({ phoneNumber: '++1 234' })).toEqual(['phoneNumber']);
    expect(issues({ dateOfBirth: '2001-02-29' })).toEqual(['dateOfBirth']);
    expect(issues({ dateOfBirth: '10/12/1990' })).toEqual(['dateOfBirth']);
    expect(issues({ dateOfBirth: '1899-12-31' })).toEqual(['dateOfBirth']);
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    expect(issues({ socialLinks: many })).toEqual(['socialLinks']);
    expect(issues({ socialLinks: { ['k'.repeat(51)]: 'v' } }).length).toBe(1);
    expect(issues({ socialLinks: { k: 'v'.repeat(501) } }).length).toBe(1);
    expect(issues({ socialLinks: { k: 1 } }).length).toBe(1);
  });
});
