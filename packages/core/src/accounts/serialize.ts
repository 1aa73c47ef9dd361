import type { users } from '@plenum/db';

type UserRow = typeof users.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const DEFAULT_PREFERENCES = {
  theme: 'light',
  language: 'en',
  followSystem: { theme: true, language: true },
  notifications: { email: true, push: false, sms: false },
  privacy: { profileVisibility: 'public', showEmail: false, showPhoneNumber: false },
} as const;

export type Preferences = {
  theme: 'light' | 'dark';
  language: string;
  followSystem: { theme: boolean; language: boolean };
  notifications: { email: boolean; push: boolean; sms: boolean };
  privacy: { profileVisibility: 'public' | 'private'; showEmail: boolean; showPhoneNumber: boolean };
};

/**
 * Stored preferences over the defaults; profileVisibility always from the user's own field. A theme or
 * language absent from the stored JSON was never chosen: it follows the device (followSystem).
 */
export function effectivePreferences(user: Pick<UserRow, 'preferences' | 'profileVisibility'>): Preferences {
  const p = (user.preferences ?? {}) as Partial<Preferences>;
  return {
    theme: p.theme ?? DEFAULT_PREFERENCES.theme,
    language: p.language ?? DEFAULT_PREFERENCES.language,
    followSystem: { theme: p.theme === undefined, language: p.language === undefined },
    notifications: { ...DEFAULT_PREFERENCES.notifications, ...(p.notifications ?? {}) },
    privacy: {
      ...DEFAULT_PREFERENCES.privacy,
      ...(p.privacy ?? {}),
      profileVisibility: user.profileVisibility,
    },
  };
}

/** The full record, as its owner or an admin sees it. Never the password hash or the avatar file path. */
export function serializeUser(u: UserRow) {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    organizationName: u.organizationName,
    bio: u.bio,
    phoneNumber: u.phoneNumber,
    dateOfBirth: u.dateOfBirth,
    avatarUrl: u.avatarUrl,
    socialLinks: u.socialLinks ?? {},
    preferences: effectivePreferences(u),
    status: u.status,
    role: u.role,
    emailVerified: u.emailVerified,
    profileVisibility: u.profileVisibility,
    termsAcceptedAt: iso(u.termsAcceptedAt),
    verifiedAt: iso(u.verifiedAt),
    suspendedAt: iso(u.suspendedAt),
    suspensionReason: u.suspensionReason,
    suspendedBy: u.suspendedBy,
    reactivatedAt: iso(u.reactivatedAt),
    reactivatedBy: u.reactivatedBy,
    lastLoginAt: iso(u.lastLoginAt),
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

export type UserView = ReturnType<typeof serializeUser>;
