import type { Context } from './context';

/** the caller's client as sessions and account events record it (docs/accounts.md, "Account activity") */
export const clientOf = (ctx: Pick<Context, 'ip' | 'userAgent'>) => ({
  ip: ctx.ip,
  userAgent: ctx.userAgent,
});
