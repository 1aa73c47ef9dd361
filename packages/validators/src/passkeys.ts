import { z } from 'zod';
import { isoDateTime } from './common';

/**
 * Passkeys (WebAuthn; docs/accounts.md, "Passkeys"). The browser's answers are the JSON forms of
 * @simplewebauthn/browser (binary fields base64url); the server's checks of their contents are the
 * library's, these schemas only bound their size and shape.
 */
const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

/** a passkey's label: what its owner calls the device */
export const passkeyName = z.string().trim().min(1).max(64);

const credentialBase = {
  id: b64url(1024).min(1),
  rawId: b64url(1024).min(1),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  /** not read by the server (it asks for no extensions); other members are dropped */
  clientExtensionResults: z
    .object({ credProps: z.object({ rk: z.boolean().optional() }).optional() })
    .default({}),
};

export const passkeyRegistrationResponse = z
  .object({
    ...credentialBase,
    response: z.object({
      clientDataJSON: b64url(8192).min(1),
      attestationObject: b64url(65_536).min(1),
      transports: z.array(z.string().max(32)).max(10).optional(),
    }),
  })
  .meta({ id: 'PasskeyRegistrationResponse', description: 'what startRegistration() answers' });

export const passkeyAuthenticationResponse = z
  .object({
    ...credentialBase,
    response: z.object({
      clientDataJSON: b64url(8192).min(1),
      authenticatorData: b64url(8192).min(1),
      signature: b64url(8192).min(1),
      userHandle: b64url(512).optional(),
    }),
  })
  .meta({ id: 'PasskeyAuthenticationResponse', description: 'what startAuthentication() answers' });

export const passkeyRegisterOptionsInput = z.strictObject({ name: passkeyName.optional() }).optional();

export const passkeyRegisterInput = z.strictObject({
  response: passkeyRegistrationResponse,
  name: passkeyName.optional().meta({
    description: 'the label; else the one given with the options, else "Passkey"',
  }),
});

export const passkeyLoginOptionsInput = z
  .strictObject({
    mfaToken: z.string().min(1).max(200).optional().meta({
      description:
        'for the second step of a sign-in (POST /auth/login/mfa): the options then list that account’s passkeys',
    }),
  })
  .optional();

export const passkeyLoginInput = z.strictObject({ response: passkeyAuthenticationResponse });

const descriptor = z.object({
  id: z.string(),
  type: z.string(),
  transports: z.array(z.string()).optional(),
});

const hints = z.array(z.string()).optional();

/** PublicKeyCredentialCreationOptionsJSON: hand it to startRegistration({ optionsJSON }) */
export const passkeyCreationOptionsSchema = z
  .object({
    challenge: z.string(),
    rp: z.object({ id: z.string().optional(), name: z.string() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ type: z.string(), alg: z.number() })),
    timeout: z.number().optional(),
    excludeCredentials: z.array(descriptor).optional(),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.string().optional(),
        residentKey: z.string().optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: z.string().optional(),
      })
      .optional(),
    hints,
    attestation: z.string().optional(),
    attestationFormats: z.array(z.string()).optional(),
  })
  .meta({ id: 'PasskeyCreationOptions' });

/** PublicKeyCredentialRequestOptionsJSON: hand it to startAuthentication({ optionsJSON }) */
export const passkeyRequestOptionsSchema = z
  .object({
    challenge: z.string(),
    rpId: z.string().optional(),
    timeout: z.number().optional(),
    allowCredentials: z.array(descriptor).optional(),
    userVerification: z.string().optional(),
    hints,
  })
  .meta({ id: 'PasskeyRequestOptions' });

export const passkeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: isoDateTime,
    lastUsedAt: isoDateTime.nullable(),
    transports: z.array(z.string()).optional(),
    backedUp: z.boolean().meta({ description: 'a synced passkey (backed up by its platform)' }),
  })
  .meta({ id: 'Passkey' });

export const passkeyIdInput = z.strictObject({ id: z.string().min(1).max(100) });
