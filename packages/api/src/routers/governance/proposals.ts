import { createProposal, getProposal, listProposals } from '@plenum/core';
import {
  createProposalInput,
  listActiveProposalsInput,
  listProposalsInput,
  paged,
  proposalIdInput,
  proposalSchema,
  proposalSummarySchema,
} from '@plenum/validators';
import { activeProcedure, publicProcedure, router } from '../../trpc';

const tags = ['governance: proposals'];

export const proposalsRouter = router({
  create: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/proposals',
        tags,
        summary: 'Submit a proposal (creator must be a member)',
      },
      successStatus: 201,
    })
    .input(createProposalInput)
    .output(proposalSchema)
    .mutation(({ ctx, input }) => createProposal(ctx.svc, { userId: ctx.principal.userId, input })),

  get: publicProcedure
    .meta({
      optionalAuth: true,
      openapi: {
        method: 'GET',
        path: '/proposals/{proposalId}',
        tags,
        protect: false,
        summary: 'A proposal with its 50 newest votes',
      },
    })
    .input(proposalIdInput)
    .output(proposalSchema)
    .query(({ ctx, input }) => getProposal(ctx.svc, { proposalId: input.proposalId, viewer: ctx.principal })),

  byDao: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/proposals/dao/{daoId}',
        tags,
        protect: false,
        summary: 'Proposals of a DAO, newest first',
      },
    })
    .input(listProposalsInput)
    .output(paged(proposalSummarySchema))
    .query(({ ctx, input }) => listProposals(ctx.svc, input)),

  activeByDao: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/proposals/dao/{daoId}/active',
        tags,
        protect: false,
        summary: 'ACTIVE proposals of a DAO, newest first',
      },
    })
    .input(listActiveProposalsInput)
    .output(paged(proposalSummarySchema))
    .query(({ ctx, input }) => listProposals(ctx.svc, { ...input, status: 'ACTIVE' })),
});
