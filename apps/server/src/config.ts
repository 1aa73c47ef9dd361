import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type CoreConfig, isLocalAppUrl } from '@plenum/core';
import type { Env } from './env';

/**
 * The server's secret key (docs/accounts.md, "The secret key"): SECRET_KEY when set, else 32 random
 * bytes made once in DATA_DIR/secret.key (mode 0600) and read from there after. Read when first needed,
 * so a server that never meets a second factor writes no file.
 */
export function secretKeyFrom(env: Pick<Env, 'SECRET_KEY' | 'dataDir'>): () => Uint8Array {
  let key: Uint8Array | undefined;
  return () => {
    if (key) return key;
    if (env.SECRET_KEY) {
      key = Buffer.from(env.SECRET_KEY, 'utf8');
      return key;
    }
    const file = path.join(env.dataDir, 'secret.key');
    try {
      key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
    } catch {
      mkdirSync(env.dataDir, { recursive: true });
      try {
        // 'wx': of two processes starting at once, one writes and the other reads what it wrote
        writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
    }
    if (key.length < 32) throw new Error(`${file} holds no 32-byte key; remove it or set SECRET_KEY`);
    return key;
  };
}

/** The domain configuration from the environment (docs/operations.md, "Configuration"). */
export function coreConfigFromEnv(env: Env): CoreConfig {
  return {
    appUrl: env.APP_URL,
    passwordPolicy: {
      minLength: env.PASSWORD_MIN_LENGTH,
      maxLength: env.PASSWORD_MAX_LENGTH,
      requireUppercase: env.PASSWORD_REQUIRE_UPPERCASE,
      requireLowercase: env.PASSWORD_REQUIRE_LOWERCASE,
      requireNumbers: env.PASSWORD_REQUIRE_NUMBERS,
      requireSpecialChars: env.PASSWORD_REQUIRE_SPECIAL,
    },
    sessionTtlMs: env.SESSION_TTL,
    verificationTokenTtlMs: env.VERIFICATION_TOKEN_EXPIRY,
    passwordResetTokenTtlMs: env.PASSWORD_RESET_TOKEN_EXPIRY,
    emailVerificationRequired: env.EMAIL_VERIFICATION_REQUIRED,
    loginThrottle: { freeFailures: env.LOGIN_FAILURES_BEFORE_BACKOFF, maxBackoffMs: env.LOGIN_BACKOFF_MAX },
    passwordChecks: {
      concurrency: env.PASSWORD_CHECK_CONCURRENCY,
      queue: env.PASSWORD_CHECK_QUEUE,
      perClient: env.PASSWORD_CHECKS_PER_CLIENT,
      perClientQueue: env.PASSWORD_CHECK_QUEUE_PER_CLIENT,
    },
    adminEmails: env.adminEmails,
    mfaRequiredForAdmins: env.MFA_REQUIRED_FOR_ADMINS,
    secretKey: secretKeyFrom(env),
    termsUrl: env.TERMS_URL ?? null,
    oidcProviders: env.OIDC_PROVIDERS,
    siweChainIds: env.siweChainIds,
    siweRpcUrl: env.SIWE_RPC_URL,
    mailFrom: env.MAIL_FROM,
    webhookAllowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    users: {
      allowPublicProfiles: env.ALLOW_PUBLIC_PROFILES,
      enableProfilePictures: env.ENABLE_PROFILE_PICTURES,
      enableBio: env.ENABLE_BIO,
      enableSocialLinks: env.ENABLE_SOCIAL_LINKS,
      maxBioLength: env.MAX_BIO_LENGTH,
      maxAvatarSize: env.MAX_AVATAR_SIZE,
      allowedImageTypes: env.ALLOWED_IMAGE_TYPES.map((t) => t.toLowerCase()),
      uploadPath: env.uploadPath,
    },
    governance: {
      daoApprovalRequired: env.DAO_APPROVAL_REQUIRED,
      proposalReminderHours: env.PROPOSAL_REMINDER_HOURS,
      signatureMaxAheadS: env.VOTE_SIGNATURE_MAX_AHEAD_S,
      commentsPerMinute: env.COMMENTS_PER_MINUTE,
      chains: {
        rpcUrls: env.CHAIN_RPC_URLS,
        confirmations: env.CHAIN_CONFIRMATIONS,
        timeoutMs: env.CHAIN_RPC_TIMEOUT,
      },
      exports: { maxConcurrent: env.EXPORT_MAX_CONCURRENT, maxPerClient: env.EXPORT_MAX_PER_CLIENT },
    },
    storage: {
      gatewayUrls: env.IPFS_GATEWAY_URLS,
      timeoutMs: env.IPFS_TIMEOUT,
      pinBroadcast: env.IPFS_PIN_BROADCAST,
      maxFileSize: env.MAX_FILE_SIZE,
      allowedFileTypes: env.ALLOWED_FILE_TYPES.map((t) => t.toLowerCase()),
      maxContentBytes: 10 * 1024 * 1024,
      quotaBytes: env.STORAGE_QUOTA_BYTES,
      maxPendingPins: env.STORAGE_MAX_PENDING_PINS,
      publicUrl: env.publicUrl,
      gcWatermarkBytes: env.IPFS_GC_WATERMARK,
    },
  };
}

/**
 * The start-up warning when mail goes nowhere (docs/operations.md, "Email"), or null with a provider:
 * missing it is easy until nobody can verify an address or reset a password.
 */
export function mailWarning(env: Pick<Env, 'RESEND_API_KEY' | 'APP_URL'>): string | null {
  if (env.RESEND_API_KEY) return null;
  return isLocalAppUrl(env.APP_URL)
    ? 'No email provider: mail is not sent, only kept in the development outbox (/dev/outbox, readable from this machine and by admins); set RESEND_API_KEY and MAIL_FROM to send it'
    : `No email provider: mail is not sent, only stored, and as APP_URL (${env.APP_URL}) is not localhost nobody but an admin can read it (no verification or reset link reaches anyone); set RESEND_API_KEY and MAIL_FROM`;
}
