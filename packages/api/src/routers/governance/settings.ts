import { daoHistory, updateDao } from '@plenum/core';
import { daoHistoryInput, daoSchema, historyEntrySchema, paged, updateDaoInput } from '@plenum/validators';
import { activeProcedure, publicProcedure, router } from '../../trpc';

const tags = ['governance: daos'];

export const settingsRouter = router({
  update: activeProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/daos/{daoId}',
        tags,
        summary: 'Owner or admin: edit name, description and voting rules (rules bind new proposals only)',
      },
      errors: {
        400: ['VALIDATION_FAILED', 'TOKEN_NOT_FOUND', 'CHAIN_NOT_CONFIGURED'],
        403: ['NOT_DAO_ADMIN', 'NOT_YOUR_ADDRESS', 'WALLET_REQUIRED'],
        503: ['CHAIN_UNAVAILABLE'],
      },
    })
    .input(updateDaoInput)
    .output(daoSchema)
    .mutation(({ ctx, input }) => updateDao(ctx.svc, { userId: ctx.principal.userId, input })),

  history: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/daos/{daoId}/history',
        tags,
        protect: false,
        summary: "A DAO's edits, role, ownership and status changes, newest first",
      },
    })
    .input(daoHistoryInput)
    .output(paged(historyEntrySchema))
    .query(({ ctx, input }) => daoHistory(ctx.svc, input)),
});
