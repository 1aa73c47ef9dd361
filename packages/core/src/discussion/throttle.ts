import { rateLimits } from '@plenum/db';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { ServiceBase } from '../service-base';
import { AppError } from '../shared/errors';

/** default writes (posts, edits, deletions) per account per minute (docs/discussion.md, "Rate limit") */
export const DEFAULT_COMMENTS_PER_MINUTE = 10;

export interface CommentThrottle {
  /** spends one comment write of the account's budget; 429 RATE_LIMITED when none is left */
  spend(userId: string): Promise<void>;
}

/**
 * The per-account budget of comment writes. The counters live in the shared rate_limits table (the same
 * library and store as the per-request limits, docs/api.md, "Rate limits"), so every instance spends one
 * budget and concurrent writes never get past it.
 */
export function createCommentThrottle(base: ServiceBase): CommentThrottle {
  const points = base.config.governance.commentsPerMinute ?? DEFAULT_COMMENTS_PER_MINUTE;
  if (points === 0) return { spend: async () => {} };
  const limiter = new RateLimiterDrizzle({
    storeClient: base.db,
    schema: rateLimits,
    keyPrefix: 'comment',
    points,
    duration: 60,
    clearExpiredByTimeout: false,
  });
  return {
    async spend(userId) {
      try {
        await limiter.consume(userId, 1);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        throw new AppError('TOO_MANY_REQUESTS', 'Too many comments: wait a minute and try again', {
          reason: 'RATE_LIMITED',
          retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)),
        });
      }
    },
  };
}
