import { unlinkWallet } from '@plenum/core';
import { z } from 'zod';
import { authedProcedure } from '../trpc';

const tags = ['auth'];

/** Unlinking one of the caller's wallets; merged into the `auth` router. See docs/accounts.md. */
export const walletProcedures = {
  unlinkWallet: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/auth/wallets/{address}',
        tags,
        summary: 'Unlink one of your wallets (not while it runs a DAO, not your last way to sign in)',
      },
      successStatus: 204,
      errors: { 409: ['WALLET_IN_USE', 'LAST_SIGN_IN_METHOD'] },
    })
    .input(z.strictObject({ address: z.string().max(100) }))
    .output(z.void())
    .mutation(({ ctx, input }) =>
      unlinkWallet(ctx.svc, { userId: ctx.principal.userId, address: input.address }),
    ),
};
