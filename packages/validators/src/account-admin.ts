import { z } from 'zod';
import { afterQuery, cursorPaginationSchema, isoDateTime, pageQuery } from './common';
import { storageUsageSchema } from './storage';
import { adminUserItem, userIdParam } from './users';

// ---- account activity (docs/accounts.md, "Account activity") ----

export const ACCOUNT_EVENT_KIND = z.enum([
  'sign_in',
  'sign_in_failed',
  'password_changed',
  'password_reset',
  'email_changed',
  'factor_added',
  'factor_removed',
  'identity_linked',
  'identity_unlinked',
  'recovery_codes_renewed',
  'token_created',
  'token_revoked',
  'sessions_revoked',
  'suspended',
  'reactivated',
]);
export type AccountEventKind = z.infer<typeof ACCOUNT_EVENT_KIND>;

export const activityInput = z.strictObject({ ...pageQuery, ...afterQuery });

export const accountEventSchema = z
  .object({
    id: z.uuid(),
    kind: ACCOUNT_EVENT_KIND,
    detail: z.record(z.string(), z.unknown()).meta({
      description:
        'kind-specific: a sign-in its `method` (password, siwe, mfa with `firstFactor`, passkey, oidc); a factor change its `kind` (totp, passkey with its `name`); an identity its `provider`; a token its `tokenId`, `name`; never a secret',
    }),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'AccountEvent' });

export const accountEventListSchema = z.object({
  items: z.array(accountEventSchema),
  pagination: cursorPaginationSchema,
  nextCursor: z.string().nullable().meta({ description: 'the same as pagination.nextCursor' }),
});

// ---- the admin's view of a user ----

export const adminUserDetailSchema = adminUserItem
  .extend({
    wallets: z.array(z.object({ address: z.string(), isPrimary: z.boolean(), linkedAt: isoDateTime })),
    identities: z
      .array(
        z.object({
          id: z.uuid(),
          provider: z.string().meta({ description: 'the provider id of OIDC_PROVIDERS' }),
          providerName: z.string(),
          email: z.string().nullable(),
          linkedAt: isoDateTime,
          lastUsedAt: isoDateTime.nullable(),
        }),
      )
      .meta({ description: 'linked OpenID Connect identities' }),
    factors: z
      .array(z.object({ kind: z.string(), count: z.number().int().min(1) }))
      .meta({ description: 'second factors by kind (totp, passkey); never a secret' }),
    sessions: z.array(
      z.object({
        id: z.uuid(),
        createdAt: isoDateTime,
        lastSeenAt: isoDateTime.nullable(),
        ip: z.string().nullable(),
        userAgent: z.string().nullable(),
      }),
    ),
    ownedDaos: z.array(z.object({ id: z.uuid(), name: z.string() })),
    suspendedAt: isoDateTime.nullable(),
    suspensionReason: z.string().nullable(),
    storage: storageUsageSchema,
  })
  .meta({ id: 'AdminUserDetail' });

/** PUT /admin/users/{id}/storage-quota (docs/storage.md, "Quotas") */
export const adminStorageQuotaInput = z.strictObject({
  id: userIdParam,
  limitBytes: z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .nullable()
    .meta({ description: 'bytes; 0 = unlimited; null = back to the default (STORAGE_QUOTA_BYTES)' }),
});

export const adminSessionsRevokedSchema = z.object({
  ended: z.number().int().meta({ description: 'how many live sessions ended' }),
});

export const adminPasswordResetInput = z.strictObject({ id: userIdParam });

// ---- the audit log's filters (docs/users.md, "Administration") ----

/** a day (YYYY-MM-DD, UTC) or an instant; `to` given as a day includes that whole day */
const auditBound = z.union([isoDateTime, z.iso.date()], {
  error: 'must be a date (YYYY-MM-DD) or an ISO 8601 date-time with an offset',
});

export const auditFilterQuery = {
  action: z.string().trim().max(100).optional(),
  actor: z.string().trim().max(254).optional().meta({ description: "the actor's user id or email" }),
  target: z
    .string()
    .trim()
    .max(254)
    .optional()
    .meta({ description: "the target's id, or a target user's email" }),
  /** the former name of `target`, kept for existing clients */
  targetId: z.string().trim().max(200).optional(),
  from: auditBound.optional().meta({ description: 'from this instant or day (inclusive)' }),
  to: auditBound.optional().meta({ description: 'until this instant or the end of this day (inclusive)' }),
};

/** the instant a bound stands for: a day's start, or (for `to`) the next day's start, exclusive */
export function auditBoundInstant(value: string, end: boolean): { at: Date; exclusive: boolean } {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = Date.parse(`${value}T00:00:00Z`);
    return end
      ? { at: new Date(day + 86_400_000), exclusive: true }
      : { at: new Date(day), exclusive: false };
  }
  return { at: new Date(value), exclusive: false };
}

const fromBeforeTo = (q: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) => {
  if (!q.from || !q.to) return;
  const from = auditBoundInstant(q.from, false).at;
  const to = auditBoundInstant(q.to, true);
  if (to.exclusive ? from >= to.at : from > to.at)
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
};

export const auditExportQuery = z.strictObject(auditFilterQuery).superRefine(fromBeforeTo);
export const auditLogInput = z.strictObject({ ...auditFilterQuery, ...pageQuery }).superRefine(fromBeforeTo);
