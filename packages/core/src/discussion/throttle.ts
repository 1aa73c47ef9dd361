import { rateLimits } from '@plenum/db';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Services } from '../services';
import { AppError } from '../shared/errors';

/** default writes (posts, edits, deletions) per account per minute (docs/discussion.md, "Rate limit") */
export const DEFAULT_COMMENTS_PER_MINUTE = 10;

// one limiter per database handle: the counters themselves live in the shared rate_limits table, so every
// instance spends the same budget (the same library and store as the per-request limits, docs/api.md)
const limiters = new WeakMap<object, { points: number; limiter: RateLimiterDrizzle }>();

function limiterOf(svc: Services) {
  const points = svc.config.governance.commentsPerMinute ?? DEFAULT_COMMENTS_PER_MINUTE;
  let found = limiters.get(svc.db);
  if (!found || found.points !== points) {
    found = {
      points,
      limiter: new RateLimiterDrizzle({
        storeClient: svc.db,
        schema: rateLimits,
        keyPrefix: 'comment',
        points,
        duration: 60,
        clearExpiredByTimeout: false,
      }),
    };
    limiters.set(svc.db, found);
  }
  return found.limiter;
}

/** spends one comment write of the account's budget; 429 RATE_LIMITED when none is left */
export async function spendCommentWrite(svc: Services, userId: string): Promise<void> {
  if (svc.config.governance.commentsPerMinute === 0) return;
  try {
    await limiterOf(svc).consume(userId, 1);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
    const retryAfterSeconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
    throw new AppError('TOO_MANY_REQUESTS', 'Too many comments: wait a minute and try again', {
      reason: 'RATE_LIMITED',
      retryAfterSeconds,
    });
  }
}
