import { describeToken } from '@plenum/core';
import { tokenInfoSchema, tokenLookupInput } from '@plenum/validators';
import { activeProcedure, router } from '../../trpc';

/** A DAO's governance token as its chain describes it (ERC-20), before the DAO is created. */
export const chainTokensRouter = router({
  // signed in: each lookup costs RPC requests to a chain this server pays for
  describe: activeProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/chains/{chainId}/tokens/{address}',
        tags: ['governance: daos'],
        summary: "A token's symbol and decimals, read from its chain (for a DAO's votingRules.token)",
      },
    })
    .input(tokenLookupInput)
    .output(tokenInfoSchema)
    .query(({ ctx, input }) => describeToken(ctx.svc, input)),
});
