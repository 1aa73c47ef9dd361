import type { ServerResponse } from 'node:http';
import { type Database, rateLimits } from '@plenum/db';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimitSettings {
  perMinute: number;
  authPerMinute: number;
  disabled: boolean;
}

/** Paths where guessing is the threat: sign-in, registration, verification. */
export const AUTH_PATHS = new Set([
  'POST /auth/login',
  'POST /auth/siwe',
  'POST /users',
  'POST /users/verify-email',
  'POST /users/resend-verification',
  'POST /auth/wallets',
  'POST /auth/password',
  'POST /auth/password-reset',
  'POST /auth/password-reset/confirm',
]);

/** The same guarded actions when the web app calls them as tRPC procedures (`/trpc/auth.login`, batched). */
export const AUTH_PROCEDURES = new Set([
  'auth.login',
  'auth.siwe',
  'auth.linkWallet',
  'auth.changePassword',
  'auth.requestPasswordReset',
  'auth.resetPassword',
  'registration.register',
  'registration.verifyEmail',
  'registration.resendVerification',
]);

/** the procedure names of a tRPC HTTP path (`/trpc/a.b,c.d`), empty for anything else */
export function trpcProcedures(pathname: string): string[] {
  if (!pathname.startsWith('/trpc/')) return [];
  try {
    return decodeURIComponent(pathname.slice('/trpc/'.length)).split(',');
  } catch {
    return [];
  }
}

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Counters live in the database (rate-limiter-flexible's Drizzle store), so several server instances
 * share one budget per client. Per IP on every path, per user when signed in, and a stricter per-IP
 * budget on the auth paths.
 */
export function createRateLimiter(db: Database, settings: RateLimitSettings) {
  const make = (keyPrefix: string, points: number) =>
    new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix,
      points,
      duration: 60,
      clearExpiredByTimeout: false,
    });
  const ip = make('ip', settings.perMinute);
  const user = make('user', settings.perMinute);
  const auth = make('auth', settings.authPerMinute);

  function headers(res: ServerResponse, limit: number, r: RateLimiterRes) {
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, r.remainingPoints)));
    res.setHeader('RateLimit-Reset', String(Math.ceil(r.msBeforeNext / 1000)));
    res.setHeader('RateLimit-Policy', `${limit};w=60`);
  }

  async function take(
    limiter: RateLimiterDrizzle,
    key: string,
    limit: number,
    res: ServerResponse,
  ): Promise<RateDecision> {
    try {
      const r = await limiter.consume(key);
      headers(res, limit, r);
      return { ok: true };
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        headers(res, limit, err);
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) };
      }
      // the store is unreachable: fail open rather than take the whole API down with the database
      return { ok: true };
    }
  }

  return {
    async check(params: {
      ip: string;
      userId: string | null;
      routeKey: string;
      /** a tRPC call of one of AUTH_PROCEDURES */
      authCall?: boolean;
      res: ServerResponse;
    }): Promise<RateDecision> {
      if (settings.disabled) return { ok: true };
      if (params.authCall || AUTH_PATHS.has(params.routeKey)) {
        const a = await take(auth, params.ip, settings.authPerMinute, params.res);
        if (!a.ok) return a;
      }
      const byIp = await take(ip, params.ip, settings.perMinute, params.res);
      if (!byIp.ok || !params.userId) return byIp;
      return take(user, params.userId, settings.perMinute, params.res);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
