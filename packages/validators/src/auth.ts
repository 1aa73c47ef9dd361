import { z } from 'zod';
import { address, isoDateTime } from './common';
import { coded } from './issue-codes';
import { userSchema } from './users';

export const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email(coded('invalid_email', 'must be a valid email address')))
  .pipe(z.string().max(254));

export const loginInput = z.strictObject({
  email: z.string().trim().max(254),
  password: z.string().max(1024),
});

export const siweInput = z.strictObject({
  message: z.string().min(1).max(4096),
  signature: z.string().min(1).max(4096),
});

export const sessionSchema = z
  .object({ token: z.string(), expiresAt: isoDateTime, user: userSchema })
  .meta({ id: 'Session' });

export const nonceSchema = z.object({ nonce: z.string(), expiresAt: isoDateTime });

export const walletSchema = z
  .object({ address, isPrimary: z.boolean(), linkedAt: isoDateTime })
  .meta({ id: 'Wallet' });

export const meSchema = z.object({ user: userSchema, wallets: z.array(walletSchema) });

/** The policy's length rule (PASSWORD_MAX_LENGTH) is checked by the server; this only bounds the body. */
const newPassword = z.string().min(1).max(1024);

export const changePasswordInput = z.strictObject({
  currentPassword: z.string().min(1).max(1024),
  newPassword,
});

export const passwordChangedSchema = z.object({
  message: z.string(),
  endedSessions: z.number().int().meta({ description: 'how many other sessions were signed out' }),
});

export const passwordResetRequestInput = z.strictObject({
  email: z
    .string()
    .trim()
    .max(254)
    .pipe(z.email(coded('invalid_email', 'must be a valid email address'))),
});

export const passwordResetConfirmInput = z.strictObject({
  token: z.string().min(1).max(512),
  newPassword,
});

export const sessionInfoSchema = z
  .object({
    id: z.uuid(),
    createdAt: isoDateTime,
    lastUsedAt: isoDateTime.nullable().meta({ description: 'updated at most once a minute' }),
    expiresAt: isoDateTime,
    userAgent: z.string().nullable(),
    ip: z.string().nullable(),
    current: z.boolean().meta({ description: 'the session making this request' }),
  })
  .meta({ id: 'SessionInfo' });

export const sessionIdInput = z.strictObject({ id: z.string().min(1).max(100) });

export const sessionsEndedSchema = z.object({
  ended: z.number().int().meta({ description: 'how many other sessions were signed out' }),
});
