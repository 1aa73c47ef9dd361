import { users } from '@plenum/db';
import type { PreferencesPatch } from '@plenum/validators';
import { eq } from 'drizzle-orm';
import { DEFAULT_PREFERENCES, effectivePreferences, type Preferences } from '../accounts/serialize';
import type { Services } from '../services';
import { type Actor, assertOwner, assertOwnerOrAdmin, loadLiveUser, lockLiveUser } from './access';

/**
 * Deep merge of a validated patch into complete preferences: only the given leaves change. Pure, so
 * the merge rules are unit-tested without a database.
 */
export function mergePreferences(current: Preferences, patch: PreferencesPatch): Preferences {
  // a value is a choice; followSystem true hands the field back to the device (and wins over a value)
  const followTheme =
    patch.followSystem?.theme ?? (patch.theme !== undefined ? false : current.followSystem.theme);
  const followLanguage =
    patch.followSystem?.language ?? (patch.language !== undefined ? false : current.followSystem.language);
  return {
    theme: followTheme ? DEFAULT_PREFERENCES.theme : (patch.theme ?? current.theme),
    language: followLanguage
      ? DEFAULT_PREFERENCES.language
      : patch.language
        ? canonicalLanguage(patch.language)
        : current.language,
    followSystem: { theme: followTheme, language: followLanguage },
    notifications: { ...current.notifications, ...definedOnly(patch.notifications) },
    privacy: { ...current.privacy, ...definedOnly(patch.privacy) },
  };
}

/** "EN-us" → "en-US": one spelling per tag, so clients compare tags as strings. */
export function canonicalLanguage(tag: string): string {
  return Intl.getCanonicalLocales(tag)[0] ?? tag;
}

function definedOnly<T extends object>(o: T | undefined): Partial<T> {
  if (!o) return {};
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * What the preferences column and the profileVisibility column hold for these preferences: the
 * visibility has one truth, the user's own field, so it is never duplicated into the JSON.
 */
export function storedPreferences(prefs: Preferences) {
  const { profileVisibility, ...privacy } = prefs.privacy;
  return {
    preferences: {
      // left out while following the device: effectivePreferences reads the absence as followSystem
      ...(prefs.followSystem.theme ? {} : { theme: prefs.theme }),
      ...(prefs.followSystem.language ? {} : { language: prefs.language }),
      notifications: prefs.notifications,
      privacy,
    },
    profileVisibility,
  };
}

export async function getPreferences(svc: Services, params: { actor: Actor; id: string }) {
  const user = await loadLiveUser(svc.db, params.id);
  assertOwnerOrAdmin(params.actor, user.id);
  return effectivePreferences(user);
}

/** Owner only; merges in one transaction so two concurrent patches both land. */
export async function updatePreferences(
  svc: Services,
  params: { actor: Actor; id: string; patch: PreferencesPatch },
) {
  return svc.db.transaction(async (tx) => {
    const user = await lockLiveUser(tx, params.id);
    assertOwner(params.actor, user.id);
    const merged = mergePreferences(effectivePreferences(user), params.patch);
    const [updated] = await tx
      .update(users)
      .set({ ...storedPreferences(merged), updatedAt: svc.clock.now() })
      .where(eq(users.id, user.id))
      .returning();
    return effectivePreferences(updated ?? user);
  });
}
