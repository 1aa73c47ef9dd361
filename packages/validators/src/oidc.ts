import { z } from 'zod';
import { isoDateTime } from './common';

/** OpenID Connect sign-in (docs/accounts.md, "Signing in with OpenID Connect") */

export const oidcProviderSchema = z.object({ id: z.string(), name: z.string() }).meta({ id: 'OidcProvider' });

export const linkedIdentitySchema = z
  .object({
    id: z.uuid(),
    provider: z.string(),
    providerName: z.string(),
    email: z.string().nullable(),
    createdAt: isoDateTime,
    lastUsedAt: isoDateTime.nullable(),
  })
  .meta({ id: 'LinkedIdentity' });

export const identityIdInput = z.strictObject({ id: z.uuid() });

export const identityLinkConfirmInput = z.strictObject({ token: z.string().min(1).max(200) });

export const identityLinkConfirmedSchema = z.object({ provider: z.string(), providerName: z.string() });

export const oidcHandoffInput = z.strictObject({ handoff: z.string().min(1).max(2000) });

export const oidcLinkStartInput = z.strictObject({
  provider: z.string().min(1).max(40),
  returnTo: z.string().max(2000).optional(),
});

/** the codes a failed OpenID sign-in brings to the sign-in page as `?error=` */
export const OIDC_ERROR_CODES = [
  'OIDC_STATE_INVALID',
  'OIDC_PROVIDER_ERROR',
  'OIDC_EXCHANGE_FAILED',
  'OIDC_PROVIDER_UNAVAILABLE',
  'OIDC_EMAIL_MISSING',
  'OIDC_IDENTITY_TAKEN',
  'ACCOUNT_SUSPENDED',
  'ACCOUNT_DELETED',
  'SIGN_IN_REQUIRED',
] as const;
