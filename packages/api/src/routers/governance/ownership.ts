import { acceptOwnership, transferOwnership, withdrawOwnershipTransfer } from '@plenum/core';
import {
  acceptOwnerInput,
  daoSchema,
  ownerTransferSchema,
  transferOwnerInput,
  withdrawTransferInput,
} from '@plenum/validators';
import { activeProcedure, router } from '../../trpc';

const tags = ['governance: daos'];

/** ownership transfer in two steps (docs/governance.md, "Ownership") */
export const ownershipRouter = router({
  transfer: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/daos/{daoId}/owner',
        tags,
        summary: 'Owner: offer the ownership to another address (it accepts to take it)',
      },
      successStatus: 202,
      errors: { 403: ['NOT_DAO_ADMIN', 'NOT_YOUR_ADDRESS', 'WALLET_REQUIRED'], 409: ['ALREADY_OWNER'] },
    })
    .input(transferOwnerInput)
    .output(ownerTransferSchema)
    .mutation(({ ctx, input }) => transferOwnership(ctx.svc, { userId: ctx.principal.userId, ...input })),

  accept: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/daos/{daoId}/owner/accept',
        tags,
        summary: 'New owner: accept the pending ownership transfer to one of your wallets',
      },
      errors: {
        401: ['NOT_SIGNED_IN', 'ACCOUNT_DELETED'],
        403: ['ACCOUNT_SUSPENDED', 'NOT_YOUR_ADDRESS'],
        409: ['NO_PENDING_TRANSFER'],
      },
    })
    .input(acceptOwnerInput)
    .output(daoSchema)
    .mutation(({ ctx, input }) => acceptOwnership(ctx.svc, { userId: ctx.principal.userId, ...input })),

  withdraw: activeProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/daos/{daoId}/owner/pending',
        tags,
        summary: 'Owner: withdraw the pending ownership transfer',
      },
      errors: { 403: ['NOT_DAO_ADMIN', 'NOT_YOUR_ADDRESS', 'WALLET_REQUIRED'], 409: ['NO_PENDING_TRANSFER'] },
    })
    .input(withdrawTransferInput)
    .output(daoSchema)
    .mutation(({ ctx, input }) =>
      withdrawOwnershipTransfer(ctx.svc, { userId: ctx.principal.userId, ...input }),
    ),
});
