import { z } from 'zod';
import { address, isoDateTime } from './common';
import { coded } from './issue-codes';
import { passkeyAuthenticationResponse } from './passkeys';
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

export const meSchema = z.object({
  user: userSchema,
  wallets: z.array(walletSchema),
  hasPassword: z.boolean().meta({
    description:
      'false for an account without a password: its email change is proven by a second-factor code',
  }),
});

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

/** Two-factor sign-in (docs/accounts.md, "Two-factor sign-in") */
export const MFA_METHOD_NAMES = ['totp', 'recovery_code', 'passkey'] as const;

export const mfaChallengeSchema = z
  .object({
    mfaRequired: z.literal(true),
    mfaToken: z.string().meta({ description: 'answer it with POST /auth/login/mfa within 5 minutes' }),
    methods: z.array(z.enum(MFA_METHOD_NAMES)),
    expiresAt: isoDateTime,
  })
  .meta({ id: 'MfaChallenge' });

/** a sign-in's answer: the session, or (an account with a second factor) the challenge to answer */
export const signInSchema = z.union([sessionSchema, mfaChallengeSchema]);

/** a 6-digit code from the app, or a recovery code (`xxxxx-xxxxx`, any case, spaces and dashes ignored) */
const codeText = z.string().trim().min(1).max(64);

export const mfaLoginInput = z
  .strictObject({
    mfaToken: z.string().min(1).max(200),
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'must be the 6 digits the app shows')
      .optional(),
    recoveryCode: codeText.optional(),
    passkey: passkeyAuthenticationResponse.optional().meta({
      description:
        'a passkey’s answer to the options of POST /auth/passkeys/login/options with this mfaToken',
    }),
  })
  .refine((v) => [v.code, v.recoveryCode, v.passkey].filter((a) => a !== undefined).length === 1, {
    message: 'give one of code, recoveryCode or passkey',
    path: ['code'],
  });

export const totpEnrolmentSchema = z.object({
  secret: z.string().meta({ description: 'base32, for typing into the app by hand' }),
  otpauthUrl: z.string().meta({ description: 'the otpauth:// URI a QR code carries' }),
});

export const mfaCodeInput = z.strictObject({
  code: codeText.meta({
    description: 'a current code from the app, or (to turn it off or renew codes) a recovery code',
  }),
});

export const totpConfirmInput = z.strictObject({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'must be the 6 digits the app shows'),
});

export const recoveryCodesSchema = z.object({
  recoveryCodes: z.array(z.string()).meta({
    description: 'ten single-use codes, shown this once; each signs in once instead of a code from the app',
  }),
});

export const mfaStatusSchema = z.object({
  totp: z.object({ enabled: z.boolean(), confirmedAt: isoDateTime.nullable() }),
  recoveryCodesLeft: z.number().int(),
});

/** Changing the email address (docs/accounts.md, "Changing the email address") */
export const emailChangeInput = z
  .strictObject({
    newEmail: email,
    password: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .meta({ description: 'the current password, when the account has one' }),
    code: codeText.optional().meta({
      description: 'for an account without a password: a current code from the app or a recovery code',
    }),
  })
  .refine((v) => v.password !== undefined || v.code !== undefined, {
    message: 'give the current password (or, for an account without one, a code)',
    path: ['password'],
  });

export const emailChangeTokenInput = z.strictObject({ token: z.string().min(1).max(512) });

export const emailChangedSchema = z.object({
  message: z.string(),
  email: z.string().meta({ description: 'the address the account has now' }),
});

/** the session of a sign-in's answer, or null when it awaits a second factor */
export const sessionOfSignIn = <A extends object>(answer: A): Exclude<A, { mfaRequired: true }> | null =>
  'mfaRequired' in answer ? null : (answer as Exclude<A, { mfaRequired: true }>);
