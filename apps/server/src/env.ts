import path from 'node:path';
import { DEFAULT_PASSWORD_POLICY as PASSWORD } from '@plenum/validators';
import { z } from 'zod';
import { oidcProvidersEnv } from './oidc-env';

/** The one place that reads process.env; every variable is documented in .env.example. */
const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? def : ['true', '1', 'yes'].includes(v)));
const int = (def: number, min = 0) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return def;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min) {
        ctx.addIssue({ code: 'custom', message: `must be an integer ≥ ${min}` });
        return z.NEVER;
      }
      return n;
    });
/** the avatar formats that may be allowed (docs/users.md, "Avatars"), by extension or MIME type */
const AVATAR_TYPES = new Set(['jpg', 'jpeg', 'png', 'gif', 'image/jpeg', 'image/png', 'image/gif']);
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
const list = (def: string) =>
  z
    .string()
    .optional()
    .transform((v) =>
      (v === undefined || v === '' ? def : v)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
/** a TCP port, 0 = any free one */
const port = <D extends number | undefined>(def: D) =>
  z
    .string()
    .optional()
    .transform((v, ctx): number | D => {
      if (v === undefined || v === '') return def;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 65_535) {
        ctx.addIssue({ code: 'custom', message: 'must be a port from 0 to 65535 (0 = any free port)' });
        return z.NEVER;
      }
      return n;
    });
const MULTIADDR_WITH_PEER = /^\/.+\/p2p\/[1-9A-HJ-NP-Za-km-z]+$/;
const url = (def?: string) =>
  def
    ? z.url().optional().default(def)
    : z
        .url()
        .optional()
        .or(z.literal('').transform(() => undefined));

/** a number of hours ≥ 0, fractions allowed (at most a year: no proposal is longer) */
const hours = (def: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return def;
      const n = Number(v);
      if (!/^\d+(\.\d+)?$/.test(v.trim()) || !Number.isFinite(n) || n > 8760) {
        ctx.addIssue({ code: 'custom', message: 'must be a number of hours from 0 to 8760 (0 = off)' });
        return z.NEVER;
      }
      return n;
    });

/** "24h", "7d", "30m", "3600s" or plain milliseconds */
const duration = (def: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = v === undefined || v === '' ? def : v;
      const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(s.trim());
      if (!m) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a duration such as 24h, 7d, 30m, 90s or milliseconds',
        });
        return z.NEVER;
      }
      const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? 'ms') as 'ms'];
      return Math.round(Number(m[1]) * unit);
    });

/** a memory size as PostgreSQL writes it (16MB, 512kB, 1GB), passed to the embedded database as is */
const pgSize = (def: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const s = v === undefined || v === '' ? def : v.trim();
      if (!/^\d+(kB|MB|GB)$/.test(s)) {
        ctx.addIssue({ code: 'custom', message: 'must be a size such as 16MB, 512kB or 1GB' });
        return z.NEVER;
      }
      return s;
    });

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(4000, 0),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: url(),
  DATABASE_POOL_SIZE: int(20, 1),
  /** ms a new database connection may take before requests fail with 503 (docs/operations.md) */
  DATABASE_CONNECT_TIMEOUT: int(1_000, 100),
  /** the embedded database's memory (docs/operations.md, "Memory of the embedded mode"); PostgreSQL sizes */
  PGLITE_SHARED_BUFFERS: pgSize('16MB'),
  PGLITE_MAINTENANCE_WORK_MEM: pgSize('16MB'),
  APP_URL: z.url().default('http://localhost:3000'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool(false),
  CORS_ORIGINS: list(''),

  SESSION_TTL: duration('7d'),
  /** wrong passwords per account before each further one locks it for longer (docs/accounts.md) */
  LOGIN_FAILURES_BEFORE_BACKOFF: int(5, 1),
  LOGIN_BACKOFF_MAX: duration('15m'),
  /** argon2 checks at once per process, waiting beyond that, and per client (docs/accounts.md, "Password guessing") */
  PASSWORD_CHECK_CONCURRENCY: int(4, 1),
  PASSWORD_CHECK_QUEUE: int(64, 0),
  PASSWORD_CHECKS_PER_CLIENT: int(2, 1),
  PASSWORD_CHECK_QUEUE_PER_CLIENT: int(16, 0),
  /** calls in one tRPC HTTP batch (docs/api.md, "Rate limits") */
  TRPC_MAX_BATCH: int(20, 1),
  VERIFICATION_TOKEN_EXPIRY: duration('24h'),
  PASSWORD_RESET_TOKEN_EXPIRY: duration('1h'),
  EMAIL_VERIFICATION_REQUIRED: bool(true),
  ADMIN_EMAILS: list(''),
  /** admins may do nothing but set up a second factor until they have one (docs/accounts.md, "Two-factor sign-in") */
  MFA_REQUIRED_FOR_ADMINS: bool(false),
  /**
   * encrypts TOTP secrets and keys recovery-code hashes; unset: a key made once in DATA_DIR/secret.key.
   * Several instances must share one (docs/accounts.md, "The secret key")
   */
  /** OpenID providers to sign in with (docs/accounts.md, "Signing in with OpenID Connect") */
  OIDC_PROVIDERS: oidcProvidersEnv,
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** the terms of use registration links to and requires; unset: no terms (docs/accounts.md, "Terms of use") */
  TERMS_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SIWE_CHAIN_IDS: list('1,10,137,8453,42161,11155111'),
  SIWE_RPC_URL: url(),

  PASSWORD_MIN_LENGTH: int(PASSWORD.minLength, 1),
  PASSWORD_MAX_LENGTH: int(PASSWORD.maxLength, 1),
  PASSWORD_REQUIRE_UPPERCASE: bool(PASSWORD.requireUppercase),
  PASSWORD_REQUIRE_LOWERCASE: bool(PASSWORD.requireLowercase),
  PASSWORD_REQUIRE_NUMBERS: bool(PASSWORD.requireNumbers),
  PASSWORD_REQUIRE_SPECIAL: bool(PASSWORD.requireSpecialChars),

  RESEND_API_KEY: z.string().optional(),
  MAIL_FROM: z.string().default('Plenum <no-reply@plenum.local>'),

  ALLOW_PUBLIC_PROFILES: bool(true),
  ENABLE_PROFILE_PICTURES: bool(true),
  ENABLE_BIO: bool(true),
  ENABLE_SOCIAL_LINKS: bool(true),
  MAX_BIO_LENGTH: int(500, 1),
  MAX_AVATAR_SIZE: int(5_242_880, 1),
  ALLOWED_IMAGE_TYPES: list('jpg,jpeg,png,gif').refine(
    (xs) => xs.length > 0 && xs.every((x) => AVATAR_TYPES.has(x.toLowerCase())),
    { message: 'a comma-separated list of jpg, jpeg, png, gif (or image/jpeg, image/png, image/gif)' },
  ),
  UPLOAD_PATH: z.string().optional(),

  DAO_APPROVAL_REQUIRED: bool(false),
  /** reminder mail this many hours before a proposal ends, to members who have not voted; 0 = off */
  PROPOSAL_REMINDER_HOURS: hours(24),
  /** how far a signed vote's timestamp may be ahead of the server's clock, seconds (docs/governance.md) */
  COMMENTS_PER_MINUTE: int(10),
  VOTE_SIGNATURE_MAX_AHEAD_S: int(300).refine((n) => n <= 300, { message: 'must be at most 300' }),
  EVENTS_REVALIDATE_MS: int(60_000, 100),
  /** webhooks over http and to loopback/private addresses: for tests and closed networks (docs/webhooks.md) */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool(false),
  // live event streams: caps per connection and per user, backpressure, replays at once (docs/events.md, "Limits")
  EVENTS_MAX_SUBSCRIPTIONS_PER_CONNECTION: int(20, 1),
  EVENTS_MAX_STREAMS_PER_USER: int(50, 1),
  EVENTS_MAX_BUFFERED_BYTES: int(1_048_576, 16_384),
  EVENTS_REPLAY_CONCURRENCY: int(2, 1),
  /** token holdings from the chain: `chainId=url` pairs, comma-separated (docs/governance.md) */
  CHAIN_RPC_URLS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const out: Record<number, string> = {};
      for (const pair of (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const eq = pair.indexOf('=');
        const id = Number(pair.slice(0, eq));
        const url = pair.slice(eq + 1).trim();
        if (
          eq < 1 ||
          !Number.isSafeInteger(id) ||
          id < 1 ||
          !z.url().safeParse(url).success ||
          !/^https?:/.test(url)
        ) {
          ctx.addIssue({ code: 'custom', message: `"${pair}" is not chainId=http(s)://url` });
          return z.NEVER;
        }
        if (out[id]) {
          ctx.addIssue({ code: 'custom', message: `chain ${id} is given twice` });
          return z.NEVER;
        }
        out[id] = url;
      }
      return out;
    }),
  /** blocks below the newest one for a proposal's snapshot block */
  CHAIN_CONFIRMATIONS: int(0, 0),
  CHAIN_RPC_TIMEOUT: int(10_000, 1),

  // storage (IPFS): see .env.example
  IPFS_NODE_URL: url(),
  IPFS_API_URL: url(),
  IPFS_GATEWAY_URLS: list('').pipe(z.array(z.url({ message: 'must be a comma-separated list of URLs' }))),
  IPFS_TIMEOUT: int(30_000, 1),
  IPFS_PIN_BROADCAST: bool(true),
  /** bytes in the embedded blockstore from which an unpin starts GC; 0 = never automatically */
  IPFS_GC_WATERMARK: int(10 * 1024 ** 3),
  // the embedded node on the network (docs/storage.md, "The embedded node on the network")
  IPFS_OFFLINE: bool(false),
  IPFS_SWARM_PORT: port(4001),
  /** default: IPFS_SWARM_PORT + 1 (any free port when IPFS_SWARM_PORT is 0) */
  IPFS_SWARM_WS_PORT: port(undefined),
  IPFS_SWARM_HOST: z
    .union([z.ipv4(), z.ipv6()], { message: 'must be an IPv4 or IPv6 address' })
    .default('0.0.0.0'),
  IPFS_BOOTSTRAP: list('').refine((xs) => xs.every((x) => MULTIADDR_WITH_PEER.test(x)), {
    message: 'a comma-separated list of multiaddrs ending in /p2p/<peer id>',
  }),
  IPFS_ANNOUNCE: list('').refine((xs) => xs.every((x) => x.startsWith('/')), {
    message: 'a comma-separated list of multiaddrs such as /dns4/ipfs.example.org/tcp/4001',
  }),
  IPFS_MAX_CONNECTIONS: int(100, 1),
  /** ms an inbound libp2p connection has to complete its handshake; how many may be in it at once */
  IPFS_SWARM_HANDSHAKE_TIMEOUT: int(5_000, 100),
  IPFS_SWARM_MAX_PENDING: int(64, 1),
  MAX_FILE_SIZE: int(104_857_600, 1),
  // quotas (docs/storage.md, "Quotas"): 0 = unlimited / no limit
  STORAGE_QUOTA_BYTES: int(1_073_741_824, 0),
  STORAGE_MAX_PENDING_PINS: int(100, 0),
  ALLOWED_FILE_TYPES: list('image/jpeg,image/png,application/pdf,text/plain').refine(
    (xs) => xs.length > 0 && xs.every((x) => MIME_TYPE.test(x)),
    { message: 'a comma-separated list of MIME types such as image/png,application/pdf' },
  ),
  API_URL: url(),

  RATE_LIMIT_PER_MINUTE: int(600, 1),
  RATE_LIMIT_AUTH_PER_MINUTE: int(20, 1),
  RATE_LIMIT_DISABLED: bool(false),
  MAX_JSON_BODY: int(1_048_576, 1024),

  // operations (docs/operations.md, "Production")
  /** how long a stopping instance may take to finish in-flight work before it exits anyway */
  SHUTDOWN_TIMEOUT: duration('10s'),
  /** after a stop signal, how long /ready answers 503 while the instance still serves new requests, so a
   * load balancer that polls /ready stops sending before the listener closes; 0 = close at once */
  SHUTDOWN_DELAY: duration('0s'),
  /** serve /metrics on this port only (an internal interface); 0 = not on its own port */
  METRICS_PORT: int(0, 0),
  /** serve /metrics on the API port to `Authorization: Bearer <METRICS_TOKEN>` */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),

  // load limits (docs/operations.md: "Metrics", "Database outages", "Slow clients";
  // docs/governance.md, "Exporting the votes")
  /** the interface of the METRICS_PORT listener, which asks no credentials: loopback unless set */
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** vote exports streaming at once on this instance, and from one client IP */
  EXPORT_MAX_CONCURRENT: int(8, 1),
  EXPORT_MAX_PER_CLIENT: int(2, 1),
  /** ms a statement (or a transaction's COMMIT) may go unanswered before its request is answered 503 */
  DATABASE_STATEMENT_TIMEOUT: duration('5s'),
  /** ms a transaction may wait for a pooled connection (and its BEGIN) before its request is answered 503 */
  DATABASE_ACQUIRE_TIMEOUT: duration('5s'),
  /** a request's line and headers must arrive within this; its JSON body within HTTP_BODY_TIMEOUT */
  HTTP_HEADERS_TIMEOUT: duration('10s'),
  HTTP_BODY_TIMEOUT: duration('10s'),
  /** a streamed upload (any other body) is cut when a window brings less than HTTP_UPLOAD_MIN_RATE B/s */
  HTTP_UPLOAD_RATE_WINDOW: duration('30s'),
  HTTP_UPLOAD_MIN_RATE: int(1024, 0),
  /** open connections from one socket address; 0 = no cap; default 512, or 0 with TRUST_PROXY (a proxy's
   * connections all come from its address: docs/operations.md, "Slow clients") */
  HTTP_MAX_CONNECTIONS_PER_IP: int(-1, 0),
});

export type Env = ReturnType<typeof loadEnv>;

export class EnvError extends Error {}

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  // an empty variable (`FOO=` in a copied .env.example) means "not set": the default applies
  const given = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== ''),
  );
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.PASSWORD_MIN_LENGTH > e.PASSWORD_MAX_LENGTH) {
    throw new EnvError('Invalid configuration:\n  PASSWORD_MIN_LENGTH: must not exceed PASSWORD_MAX_LENGTH');
  }
  const chainIds = e.SIWE_CHAIN_IDS.map(Number);
  if (chainIds.some((n) => !Number.isInteger(n) || n <= 0)) {
    throw new EnvError(
      'Invalid configuration:\n  SIWE_CHAIN_IDS: must be a comma-separated list of positive integers',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    ...e,
    dataDir,
    uploadPath: path.resolve(e.UPLOAD_PATH ?? path.join(dataDir, 'uploads')),
    siweChainIds: chainIds,
    adminEmails: e.ADMIN_EMAILS.map((s) => s.toLowerCase()),
    maxConnectionsPerIp:
      e.HTTP_MAX_CONNECTIONS_PER_IP >= 0 ? e.HTTP_MAX_CONNECTIONS_PER_IP : e.TRUST_PROXY ? 0 : 512,
    publicUrl: (e.API_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    ipfsSwarm: e.IPFS_OFFLINE
      ? null
      : {
          port: e.IPFS_SWARM_PORT,
          wsPort:
            e.IPFS_SWARM_WS_PORT ??
            (e.IPFS_SWARM_PORT === 0 || e.IPFS_SWARM_PORT === 65_535 ? 0 : e.IPFS_SWARM_PORT + 1),
          host: e.IPFS_SWARM_HOST,
          // the default ports are a wish (another IPFS node may hold 4001); ports one sets are a must
          anyPortIfTaken: given.IPFS_SWARM_PORT === undefined && given.IPFS_SWARM_WS_PORT === undefined,
          bootstrap: e.IPFS_BOOTSTRAP,
          announce: e.IPFS_ANNOUNCE,
          maxConnections: e.IPFS_MAX_CONNECTIONS,
          handshakeTimeoutMs: e.IPFS_SWARM_HANDSHAKE_TIMEOUT,
          maxPendingInbound: e.IPFS_SWARM_MAX_PENDING,
        },
  };
}
