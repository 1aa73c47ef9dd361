import {
  type CoreConfig,
  createCoreServices,
  createLogger,
  defaultPasswordPolicy,
  resolveToken,
  systemClock,
} from '@plenum/core';
import { createDb } from '@plenum/db';
import type { ApiServices, Context } from '../../src/context';
import { appRouter } from '../../src/root';
import { createCallerFactory } from '../../src/trpc';

/** What the server's coreConfigFromEnv builds from the default environment, minus what these tests never reach. */
export function testConfig(overrides: Partial<CoreConfig> = {}): CoreConfig {
  return {
    appUrl: 'http://localhost:3000',
    passwordPolicy: defaultPasswordPolicy,
    sessionTtlMs: 7 * 24 * 3_600_000,
    verificationTokenTtlMs: 24 * 3_600_000,
    passwordResetTokenTtlMs: 3_600_000,
    emailVerificationRequired: true,
    loginThrottle: { freeFailures: 5, maxBackoffMs: 15 * 60_000 },
    passwordChecks: { concurrency: 4, queue: 64, perClient: 2, perClientQueue: 16 },
    adminEmails: [],
    secretKey: () => new Uint8Array(32).fill(7),
    siweChainIds: [1],
    mailFrom: 'Plenum <no-reply@plenum.local>',
    users: {
      allowPublicProfiles: true,
      enableProfilePictures: true,
      enableBio: true,
      enableSocialLinks: true,
      maxBioLength: 500,
      maxAvatarSize: 5_242_880,
      allowedImageTypes: ['jpg', 'jpeg', 'png', 'gif'],
      uploadPath: '/nonexistent/plenum-api-test-uploads',
    },
    governance: { daoApprovalRequired: false },
    storage: {
      gatewayUrls: [],
      timeoutMs: 5_000,
      pinBroadcast: false,
      maxFileSize: 1_000_000,
      allowedFileTypes: ['text/plain'],
      maxContentBytes: 1_000_000,
      quotaBytes: 0,
      maxPendingPins: 0,
      publicUrl: 'http://localhost:4000',
      gcWatermarkBytes: 0,
    },
    ...overrides,
  };
}

/** What a procedure did to the response besides its result (cookies, headers). */
export interface ResponseRecord {
  cookies: { token: string; maxAgeSeconds: number }[];
  headers: Record<string, string>;
}

const createCaller = createCallerFactory(appRouter);

/**
 * The API on an in-memory PGlite migrated with the real migrations, and callers whose context is built
 * the way the server's contextFor builds it: the principal resolved from the presented token.
 * No storage runtime and no event bus: the procedures that need them answer 503.
 */
export async function createTestApi(options: { config?: Partial<CoreConfig> } = {}) {
  const handle = await createDb({ dataDir: 'memory://' });
  await handle.migrate();
  const svc: ApiServices = {
    ...createCoreServices({
      db: handle.db,
      config: testConfig(options.config),
      clock: systemClock,
      log: createLogger({ level: 'silent' }),
    }),
    emailProviderConfigured: false,
    version: 'test',
    storage: null,
    events: null,
  };

  async function context(token: string | null = null, response?: ResponseRecord): Promise<Context> {
    const principal = token ? await resolveToken(svc, { token }) : null;
    return {
      svc,
      principal,
      token: principal ? token : null,
      ip: '127.0.0.1',
      socketAddress: '127.0.0.1',
      userAgent: 'PlenumApiTest/1.0',
      requestId: 'test-request',
      transport: 'trpc',
      setSessionCookie: (t, { maxAgeSeconds }) => response?.cookies.push({ token: t, maxAgeSeconds }),
      setHeader: (name, value) => {
        if (response) response.headers[name] = value;
      },
    };
  }

  return {
    svc,
    context,
    /** a caller acting with this token (anonymous without one) */
    caller: async (token: string | null = null, response?: ResponseRecord) =>
      createCaller(await context(token, response)),
    close: () => handle.close(),
  };
}

export type TestApi = Awaited<ReturnType<typeof createTestApi>>;
export type Caller = Awaited<ReturnType<TestApi['caller']>>;

export const newResponse = (): ResponseRecord => ({ cookies: [], headers: {} });
