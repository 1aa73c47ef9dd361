/** Settings the domain logic needs; apps/server/src/env.ts builds this from the environment. */

import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy } from '@plenum/validators';

/** the policy's one home is @plenum/validators (its rules run on the server and in the web's live hints) */
export type { PasswordPolicy };

/** one entry of OIDC_PROVIDERS (docs/accounts.md, "Signing in with OpenID Connect") */
export interface OidcProviderConfig {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface CoreConfig {
  appUrl: string;
  passwordPolicy: PasswordPolicy;
  sessionTtlMs: number;
  verificationTokenTtlMs: number;
  /** lifetime of a password reset link (PASSWORD_RESET_TOKEN_EXPIRY) */
  passwordResetTokenTtlMs: number;
  emailVerificationRequired: boolean;
  /** per-account sign-in throttle (LOGIN_FAILURES_BEFORE_BACKOFF, LOGIN_BACKOFF_MAX) */
  loginThrottle: { freeFailures: number; maxBackoffMs: number };
  /** argon2 work at once (PASSWORD_CHECK_*, PASSWORD_CHECKS_PER_CLIENT: auth/password/gate.ts) */
  passwordChecks: { concurrency: number; queue: number; perClient: number; perClientQueue: number };
  adminEmails: string[];
  /** admins must have a second factor before they may do anything else (MFA_REQUIRED_FOR_ADMINS) */
  mfaRequiredForAdmins?: boolean;
  /**
   * the server's secret key (SECRET_KEY, else a key file in DATA_DIR), read when first needed: it
   * encrypts TOTP secrets and keys the hashes of recovery codes (docs/accounts.md, "The secret key")
   */
  secretKey: () => Uint8Array;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: webhooks over http and to private addresses (docs/webhooks.md, "Safety") */
  webhookAllowPrivateNetworks?: boolean;
  /** the terms of use a registration must accept (TERMS_URL); null or absent: none to accept */
  termsUrl?: string | null;
  /** OpenID providers one may sign in with (OIDC_PROVIDERS; docs/accounts.md, "Signing in with OpenID Connect") */
  oidcProviders?: OidcProviderConfig[];
  siweChainIds: number[];
  /** optional JSON-RPC URL to verify ERC-1271 smart-contract wallet signatures */
  siweRpcUrl?: string | undefined;
  mailFrom: string;
  users: {
    allowPublicProfiles: boolean;
    enableProfilePictures: boolean;
    enableBio: boolean;
    enableSocialLinks: boolean;
    maxBioLength: number;
    maxAvatarSize: number;
    allowedImageTypes: string[];
    uploadPath: string;
  };
  governance: {
    daoApprovalRequired: boolean;
    /**
     * hours before a proposal's end when members who have not voted get a reminder mail
     * (PROPOSAL_REMINDER_HOURS; 0 = no reminders; absent = 24)
     */
    proposalReminderHours?: number;
    /**
     * how far ahead of the server's clock a signed vote's timestamp may be, in seconds
     * (VOTE_SIGNATURE_MAX_AHEAD_S; absent = 300; docs/governance.md, "Signed votes (EIP-712)")
     */
    signatureMaxAheadS?: number;
    /**
     * comment writes per account per minute (COMMENTS_PER_MINUTE; 0 = unlimited; absent = 10;
     * docs/discussion.md, "Rate limit")
     */
    commentsPerMinute?: number;
    /** token holdings from EVM chains (docs/governance.md, "Token holdings from the chain") */
    chains?: {
      /** chain id → JSON-RPC URL (CHAIN_RPC_URLS) */
      rpcUrls: Record<number, string>;
      /** blocks below the newest for a snapshot (CHAIN_CONFIRMATIONS, default 0) */
      confirmations: number;
      /** per RPC request (default 10 s) */
      timeoutMs?: number;
    };
    /** vote exports streaming at once (docs/governance.md, "Exporting the votes"); absent = 8 and 2 */
    exports?: {
      /** on this instance (EXPORT_MAX_CONCURRENT) */
      maxConcurrent: number;
      /** from one client IP (EXPORT_MAX_PER_CLIENT) */
      maxPerClient: number;
    };
  };
  storage: StorageConfig;
}

/** IPFS storage settings (docs/storage.md) */
export interface StorageConfig {
  gatewayUrls: string[];
  /** per provider attempt, and the deadline of a background pin */
  timeoutMs: number;
  /** announce pinned CIDs through the node (a no-op on the offline embedded node) */
  pinBroadcast: boolean;
  maxFileSize: number;
  allowedFileTypes: string[];
  /** GET /ipfs/{cid} reads at most this many bytes (413 beyond) */
  maxContentBytes: number;
  /** STORAGE_QUOTA_BYTES: bytes a user may own unless an admin set their own; 0 = unlimited (docs/storage.md, "Quotas") */
  quotaBytes: number;
  /** STORAGE_MAX_PENDING_PINS: a user's pins by CID still `pinning` at once; 0 = no limit */
  maxPendingPins: number;
  /** this server's public base URL, for /ipfs/file/{cid} links when no gateway is configured */
  publicUrl: string;
  /**
   * IPFS_GC_WATERMARK: the embedded node collects garbage after an unpin once its blockstore holds this
   * many bytes; 0 = never automatically (docs/storage.md, "Garbage collection")
   */
  gcWatermarkBytes: number;
}

export const defaultPasswordPolicy: PasswordPolicy = { ...DEFAULT_PASSWORD_POLICY };
