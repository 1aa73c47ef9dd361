import { type Database, rateLimits } from '@plenum/db';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimitSettings {
  perMinute: number;
  authPerMinute: number;
  disabled: boolean;
}

type SetHeader = (name: string, value: string) => void;

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Counters live in the database (rate-limiter-flexible's Drizzle store), so several server instances
 * share one budget per client. Per IP on every path, per user when signed in, and a stricter per-IP
 * budget on the operations that declare `rateLimit: 'auth'` (sign-in, registration, verification).
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

  function headers(setHeader: SetHeader, limit: number, r: RateLimiterRes) {
    setHeader('RateLimit-Limit', String(limit));
    setHeader('RateLimit-Remaining', String(Math.max(0, r.remainingPoints)));
    setHeader('RateLimit-Reset', String(Math.ceil(r.msBeforeNext / 1000)));
    setHeader('RateLimit-Policy', `${limit};w=60`);
  }

  async function take(
    limiter: RateLimiterDrizzle,
    key: string,
    limit: number,
    points: number,
    setHeader: SetHeader,
  ): Promise<RateDecision> {
    try {
      const r = await limiter.consume(key, points);
      headers(setHeader, limit, r);
      return { ok: true };
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        headers(setHeader, limit, err);
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
      /** the operation spends the auth budget too (its meta or route says `rateLimit: 'auth'`) */
      authBudget: boolean;
      /** what the request spends: one per call of a tRPC batch, else 1 */
      points?: number;
      setHeader: SetHeader;
    }): Promise<RateDecision> {
      if (settings.disabled) return { ok: true };
      const points = params.points ?? 1;
      if (params.authBudget) {
        const a = await take(auth, params.ip, settings.authPerMinute, points, params.setHeader);
        if (!a.ok) return a;
      }
      const byIp = await take(ip, params.ip, settings.perMinute, points, params.setHeader);
      if (!byIp.ok || !params.userId) return byIp;
      return take(user, params.userId, settings.perMinute, points, params.setHeader);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
