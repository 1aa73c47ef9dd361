import {
  approveDao,
  createDao,
  getDao,
  listDaos,
  listDaosByOwner,
  rejectDao,
  setDaoStatus,
} from '@plenum/core';
import {
  createDaoInput,
  daoIdInput,
  daoSchema,
  daoSummarySchema,
  daosByOwnerInput,
  listDaosInput,
  paged,
  rejectDaoInput,
  setDaoStatusInput,
} from '@plenum/validators';
import { activeProcedure, adminProcedure, publicProcedure, router } from '../../trpc';

const tags = ['governance: daos'];

export const daosRouter = router({
  create: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/daos',
        tags,
        summary: 'Create a DAO (the owner is its first member)',
      },
      successStatus: 201,
      errors: {
        400: ['VALIDATION_FAILED', 'TOKEN_NOT_FOUND', 'CHAIN_NOT_CONFIGURED'],
        403: ['NOT_YOUR_ADDRESS'],
        503: ['CHAIN_UNAVAILABLE'],
      },
    })
    .input(createDaoInput)
    .output(daoSchema)
    .mutation(({ ctx, input }) => createDao(ctx.svc, { userId: ctx.principal.userId, input })),

  list: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/daos', tags, protect: false, summary: 'DAOs, newest first' } })
    .input(listDaosInput)
    .output(paged(daoSummarySchema))
    .query(({ ctx, input }) => listDaos(ctx.svc, input)),

  get: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/daos/{daoId}',
        tags,
        protect: false,
        summary: 'A DAO with its members and 20 newest proposals',
      },
    })
    .input(daoIdInput)
    .output(daoSchema)
    .query(({ ctx, input }) => getDao(ctx.svc, { daoId: input.daoId })),

  byOwner: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/daos/owner/{ownerAddress}',
        tags,
        protect: false,
        summary: 'DAOs of an owner address, newest first',
      },
    })
    .input(daosByOwnerInput)
    .output(paged(daoSummarySchema))
    .query(({ ctx, input }) => listDaosByOwner(ctx.svc, input)),

  setStatus: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/daos/{daoId}/status',
        tags,
        summary: 'Owner, DAO admin or platform admin: set ACTIVE or INACTIVE',
      },
      errors: { 403: ['NOT_OWNER', 'NOT_YOUR_ADDRESS'], 409: ['DAO_PENDING_APPROVAL'] },
    })
    .input(setDaoStatusInput)
    .output(daoSchema)
    .mutation(({ ctx, input }) => setDaoStatus(ctx.svc, { principal: ctx.principal, ...input })),

  approve: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/daos/{daoId}/approve',
        tags: ['admin'],
        summary: 'Approve a PENDING DAO (DAO_APPROVAL_REQUIRED)',
      },
      errors: { 403: ['ADMIN_ONLY'], 409: ['DAO_NOT_PENDING'] },
    })
    .input(daoIdInput)
    .output(daoSchema)
    .mutation(({ ctx, input }) => approveDao(ctx.svc, { actorId: ctx.principal.userId, daoId: input.daoId })),

  reject: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/daos/{daoId}/reject',
        tags: ['admin'],
        summary: 'Reject a PENDING DAO with a reason (it becomes INACTIVE; the owner gets a mail)',
      },
      errors: { 403: ['ADMIN_ONLY'], 409: ['DAO_NOT_PENDING'] },
    })
    .input(rejectDaoInput)
    .output(daoSchema)
    .mutation(({ ctx, input }) => rejectDao(ctx.svc, { actorId: ctx.principal.userId, ...input })),
});
