import { users } from '@plenum/db';
import type { PreferencesPatch } from '@plenum/validators';
import { eq } from 'drizzle-orm';
import { effectivePreferences, serializeUser } from '../accounts/serialize';
import type { Services } from '../services';
import { badRequest, type FieldIssue } from '../shared/errors';
import { type Actor, assertOwner, lockLiveUser } from './access';
import { mergePreferences, storedPreferences } from './preferences';

/** The fields PUT /users/{id} may change (the zod schema already refused every other field). */
export interface ProfilePatch {
  firstName?: string | undefined;
  lastName?: string | undefined;
  bio?: string | null | undefined;
  phoneNumber?: string | null | undefined;
  dateOfBirth?: string | null | undefined;
  socialLinks?: Record<string, string> | undefined;
  preferences?: PreferencesPatch | undefined;
}

/** Rules that depend on configuration or time, so they live here rather than in the zod schema. */
export function profilePatchIssues(
  svc: Pick<Services, 'config' | 'clock'>,
  patch: ProfilePatch,
): FieldIssue[] {
  const cfg = svc.config.users;
  const issues: FieldIssue[] = [];
  if (patch.bio != null) {
    if (!cfg.enableBio) issues.push({ path: 'bio', message: 'bios are disabled', code: 'FEATURE_DISABLED' });
    else if ([...patch.bio].length > cfg.maxBioLength)
      issues.push({ path: 'bio', message: `at most ${cfg.maxBioLength} characters`, code: 'too_big' });
  }
  if (patch.socialLinks && !cfg.enableSocialLinks && Object.keys(patch.socialLinks).length > 0)
    issues.push({ path: 'socialLinks', message: 'social links are disabled', code: 'FEATURE_DISABLED' });
  if (patch.dateOfBirth != null) {
    const today = svc.clock.now().toISOString().slice(0, 10);
    if (patch.dateOfBirth >= today)
      issues.push({ path: 'dateOfBirth', message: 'must be a date in the past', code: 'not_in_past' });
  }
  return issues;
}

/** PUT /users/{id}: owner only. Preferences merge deeply; socialLinks replace the whole map. */
export async function updateUser(svc: Services, params: { actor: Actor; id: string; patch: ProfilePatch }) {
  const { patch } = params;
  return svc.db.transaction(async (tx) => {
    const user = await lockLiveUser(tx, params.id);
    assertOwner(params.actor, user.id);
    const issues = profilePatchIssues(svc, patch);
    if (issues.length) {
      throw badRequest(
        `Invalid input: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        issues,
        'VALIDATION_FAILED',
      );
    }
    const set: Partial<typeof users.$inferInsert> = { updatedAt: svc.clock.now() };
    if (patch.firstName !== undefined) set.firstName = patch.firstName;
    if (patch.lastName !== undefined) set.lastName = patch.lastName;
    if (patch.bio !== undefined) set.bio = patch.bio?.trim() || null;
    if (patch.phoneNumber !== undefined) set.phoneNumber = patch.phoneNumber || null;
    if (patch.dateOfBirth !== undefined) set.dateOfBirth = patch.dateOfBirth;
    if (patch.socialLinks !== undefined) set.socialLinks = patch.socialLinks;
    if (patch.preferences !== undefined)
      Object.assign(set, storedPreferences(mergePreferences(effectivePreferences(user), patch.preferences)));
    const [updated] = await tx.update(users).set(set).where(eq(users.id, user.id)).returning();
    return serializeUser(updated ?? user);
  });
}
