import { z } from 'zod';
import { isoDateTime, pageQuery, paginationSchema } from './common';
import { coded, type IssueCode, refined } from './issue-codes';

/**
 * A JSON boolean and nothing else. trpc-to-openapi marks every plain z.boolean() (and z.number()) inside a
 * REST input for coercion, even in JSON bodies, so "false" would become true; it leaves a pipe alone.
 */
export const strictBoolean = () => z.boolean().pipe(z.boolean());

export const USER_STATUS = z.enum(['pending_verification', 'active', 'suspended']);
export const USER_ROLE = z.enum(['user', 'admin']);

export const preferencesSchema = z
  .object({
    theme: z.enum(['light', 'dark']),
    language: z.string(),
    /**
     * true while the person has not chosen (or chose "System" again): clients follow the device's colour
     * scheme and language, and `theme` / `language` above are only the defaults (docs/users.md, "Preferences")
     */
    followSystem: z.object({ theme: z.boolean(), language: z.boolean() }),
    notifications: z.object({ email: z.boolean(), push: z.boolean(), sms: z.boolean() }),
    privacy: z.object({
      profileVisibility: z.enum(['public', 'private']),
      showEmail: z.boolean(),
      showPhoneNumber: z.boolean(),
    }),
  })
  .meta({ id: 'Preferences' });

export const userSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    organizationName: z.string().nullable(),
    bio: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    dateOfBirth: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    socialLinks: z.record(z.string(), z.string()),
    preferences: preferencesSchema,
    status: USER_STATUS,
    role: USER_ROLE,
    emailVerified: z.boolean(),
    profileVisibility: z.enum(['public', 'private']),
    termsAcceptedAt: isoDateTime.nullable(),
    verifiedAt: isoDateTime.nullable(),
    suspendedAt: isoDateTime.nullable(),
    suspensionReason: z.string().nullable(),
    suspendedBy: z.string().nullable(),
    reactivatedAt: isoDateTime.nullable(),
    reactivatedBy: z.string().nullable(),
    lastLoginAt: isoDateTime.nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'User' });

const name = z.string().trim().min(1, 'required').max(100);

export const registerInput = z.strictObject({
  email: z
    .string()
    .trim()
    .max(254)
    .pipe(z.email(coded('invalid_email', 'must be a valid email address'))),
  password: z.string().min(1).max(1024),
  firstName: name,
  lastName: name,
  organizationName: z.string().trim().max(200).optional(),
  acceptedTerms: strictBoolean(),
});

export const verifyEmailInput = z.strictObject({ token: z.string().min(1).max(512) });
export const emailVerifiedSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  status: USER_STATUS,
  emailVerified: z.boolean(),
  message: z.string(),
});

export const resendVerificationInput = z.strictObject({ email: z.string().trim().max(254) });

export const outboxItem = z.object({
  id: z.uuid(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  createdAt: isoDateTime,
});

// ---- profiles, preferences, administration (docs/users.md) ----

export const userIdParam = z.uuid(coded('invalid_user_id', 'must be a user id (UUID)'));

/** BCP 47 language tag, checked by the platform's own tag parser (Intl). */
export const languageTag = z
  .string()
  .min(2)
  .max(35)
  .refine(
    (tag) => {
      try {
        return Intl.getCanonicalLocales(tag).length === 1;
      } catch {
        return false;
      }
    },
    refined('invalid_language', 'must be a BCP 47 language tag such as en or pt-BR'),
  );

/** What PUT /users/{id}/preferences (and `preferences` in PUT /users/{id}) accepts: any subset, deep. */
export const preferencesPatch = z
  .strictObject({
    theme: z.enum(['light', 'dark']).optional(),
    language: languageTag.optional(),
    /** true: back to the device's setting (wins over a value in the same patch); a value sets it false */
    followSystem: z
      .strictObject({ theme: strictBoolean().optional(), language: strictBoolean().optional() })
      .optional(),
    notifications: z
      .strictObject({
        email: strictBoolean().optional(),
        push: strictBoolean().optional(),
        sms: strictBoolean().optional(),
      })
      .optional(),
    privacy: z
      .strictObject({
        profileVisibility: z.enum(['public', 'private']).optional(),
        showEmail: strictBoolean().optional(),
        showPhoneNumber: strictBoolean().optional(),
      })
      .optional(),
  })
  .meta({ id: 'PreferencesPatch' });
export type PreferencesPatch = z.infer<typeof preferencesPatch>;

/** an optional plus sign, then digits, spaces, hyphens and parentheses (docs/users.md, "Profiles") */
export const PHONE_PATTERN = /^\+?[0-9 ()-]+$/;

/**
 * Keys are checked here rather than by a key schema: a key schema's failure reaches clients only as
 * zod's generic "Invalid key in record", and two keys equal once trimmed would silently become one.
 */
export const socialLinksSchema = z
  .record(z.string(), z.string().max(500, 'value at most 500 characters'))
  .superRefine((links, ctx) => {
    const keys = Object.keys(links);
    if (keys.length > 20)
      ctx.addIssue({ code: 'custom', params: { code: 'too_many_entries' }, message: 'at most 20 entries' });
    const seen = new Set<string>();
    for (const key of keys) {
      const name = key.trim();
      const problem: [IssueCode, string] | null = !name
        ? ['key_empty', 'key must not be empty']
        : name.length > 50
          ? ['key_too_long', 'key at most 50 characters']
          : seen.has(name)
            ? ['key_duplicate', 'key given twice (keys are trimmed)']
            : null;
      if (problem)
        ctx.addIssue({ code: 'custom', params: { code: problem[0] }, path: [key], message: problem[1] });
      seen.add(name);
    }
  })
  .transform((links) => Object.fromEntries(Object.entries(links).map(([k, v]) => [k.trim(), v])));

/** YYYY-MM-DD, a real calendar date from 1900 on; "in the past" is checked by core against its clock. */
export const birthDate = z.iso
  .date(coded('invalid_date', 'must be a date as YYYY-MM-DD'))
  // only judged once the format is right, so a malformed date gets one issue
  .refine(
    (d) => !/^\d{4}-\d{2}-\d{2}$/.test(d) || d >= '1900-01-01',
    refined('date_too_early', 'must be on or after 1900-01-01'),
  );

/** PUT /users/{id}: only these fields; anything else (email, status, role, emailVerified…) is a 400. */
export const updateUserInput = z.strictObject({
  id: userIdParam,
  firstName: name.optional(),
  lastName: name.optional(),
  /** the configured MAX_BIO_LENGTH (500) is enforced by core; this is only a transport cap */
  bio: z.string().max(10_000).nullable().optional(),
  phoneNumber: z
    .string()
    .trim()
    .max(32, 'at most 32 characters')
    .regex(
      PHONE_PATTERN,
      coded('invalid_phone', 'must be an optional + followed by digits, spaces, hyphens and parentheses'),
    )
    .refine((p) => /\d/.test(p), refined('phone_needs_digits', 'must contain digits'))
    .nullable()
    .optional(),
  dateOfBirth: birthDate.nullable().optional(),
  socialLinks: socialLinksSchema.optional(),
  preferences: preferencesPatch.optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserInput>;

export const userIdInput = z.strictObject({ id: userIdParam });

export const updatePreferencesInput = preferencesPatch.extend({ id: userIdParam });

export const publicProfileSchema = z
  .object({
    id: z.uuid(),
    firstName: z.string(),
    lastName: z.string(),
    /** null unless the requester is the owner */
    email: z.string().nullable(),
    bio: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    socialLinks: z.record(z.string(), z.string()),
    joinedAt: isoDateTime,
    isVerified: z.boolean(),
    profileVisibility: z.enum(['public', 'private']),
  })
  .meta({ id: 'PublicProfile' });

/** at most this many addresses per GET /profiles/by-address */
export const MAX_PROFILE_ADDRESSES = 100;
const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * GET /profiles/by-address?addresses=0xa,0xb (docs/users.md, "Names for addresses"): one query parameter,
 * addresses separated by commas, 1 to 100 of them. The EIP-55 checksum of a mixed-case address is checked
 * where addresses are canonicalized (core).
 */
export const profilesByAddressInput = z.strictObject({
  addresses: z
    .string()
    .superRefine((value, ctx) => {
      const list = value.split(',').map((a) => a.trim());
      if (list.length > MAX_PROFILE_ADDRESSES)
        ctx.addIssue({
          code: 'too_big',
          origin: 'array',
          maximum: MAX_PROFILE_ADDRESSES,
          inclusive: true,
          message: `at most ${MAX_PROFILE_ADDRESSES} addresses`,
        });
      const bad = list.find((a) => !HEX_ADDRESS.test(a));
      if (bad !== undefined)
        ctx.addIssue({
          code: 'custom',
          params: { code: 'invalid_address' },
          message: `${bad.slice(0, 50) || '(empty)'} is not 0x followed by 40 hex characters`,
        });
    })
    .meta({
      description: `wallet addresses separated by commas, at most ${MAX_PROFILE_ADDRESSES}; any case, mixed case must be a valid EIP-55 checksum`,
      example: '0x52908400098527886E0F7030069857D2E4169EE7,0x8617e340b3d01fa5f11f306f4090fd50e238070d',
    }),
});

export const addressProfileSchema = z
  .object({
    /** the address as requested, in its EIP-55 form */
    address: z.string(),
    userId: z.uuid(),
    /** first and last name */
    displayName: z.string(),
    /** null without a picture or while ENABLE_PROFILE_PICTURES is off */
    avatarUrl: z.string().nullable(),
  })
  .meta({ id: 'AddressProfile' });
export const addressProfilesSchema = z
  .object({ items: z.array(addressProfileSchema) })
  .meta({ id: 'AddressProfiles' });

export const avatarSchema = z.object({ avatarUrl: z.string() }).meta({ id: 'AvatarResult' });

// ---- administration ----

export const ADMIN_USER_SORT = z.enum(['createdAt', 'lastLoginAt', 'email', 'name', 'status', 'role']);

export const adminListUsersInput = z.strictObject({
  status: USER_STATUS.optional(),
  role: USER_ROLE.optional(),
  /** matched against email, first name, last name and the full name, ignoring case */
  search: z.string().trim().max(200).optional(),
  sort: ADMIN_USER_SORT.optional().meta({ description: 'column to order by (default createdAt)' }),
  order: z.enum(['asc', 'desc']).optional().meta({ description: 'default desc' }),
  ...pageQuery,
});

export const adminUserItem = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    status: USER_STATUS,
    role: USER_ROLE,
    emailVerified: z.boolean(),
    createdAt: isoDateTime,
    lastLoginAt: isoDateTime.nullable(),
  })
  .meta({ id: 'AdminUserItem' });

export const adminUserListSchema = z.object({ users: z.array(adminUserItem), pagination: paginationSchema });

export const suspendUserInput = z.strictObject({
  id: userIdParam,
  reason: z.string().trim().min(1, 'a reason is required').max(1000),
});
export const userSuspendedSchema = z.object({ id: z.uuid(), status: USER_STATUS, suspendedAt: isoDateTime });

export const reactivateUserInput = z.strictObject({
  id: userIdParam,
  /** optional note for the audit log */
  reason: z.string().trim().max(1000).optional(),
});
export const userReactivatedSchema = z.object({
  id: z.uuid(),
  status: USER_STATUS,
  reactivatedAt: isoDateTime,
});

export const userStatsSchema = z
  .object({
    totalUsers: z.number().int(),
    activeUsers: z.number().int(),
    suspendedUsers: z.number().int(),
    pendingVerification: z.number().int(),
    registrationsThisMonth: z.number().int(),
    /** the latest lastLoginAt of any user, null when nobody signed in yet */
    lastLoginActivity: isoDateTime.nullable(),
  })
  .meta({ id: 'UserStats' });

export const registrationsInput = z.strictObject({
  days: z.coerce.number().int().min(1).max(366).default(30).meta({ description: 'days ending today (UTC)' }),
});
export const registrationsSchema = z
  .object({
    days: z.array(
      z.object({
        day: z.string().meta({ description: 'YYYY-MM-DD (UTC)' }),
        count: z.number().int(),
      }),
    ),
    total: z.number().int(),
  })
  .meta({ id: 'RegistrationsByDay' });

export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    /** who: null for an operator at the command line */
    actorId: z.uuid().nullable(),
    actorEmail: z.string().nullable(),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string(),
    /** the target user's email (targetType user), null when there is no such user */
    targetEmail: z.string().nullable(),
    /** the target DAO's name (targetType dao), null when there is no such DAO */
    targetName: z.string().nullable(),
    reason: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'AuditEntry' });
