import {
  cancelProposal,
  createProposal,
  getProposal,
  listProposals,
  proposalHistory,
  updateProposal,
} from '@plenum/core';
import {
  cancelProposalInput,
  createProposalInput,
  historyEntrySchema,
  listActiveProposalsInput,
  listProposalsInput,
  paged,
  proposalHistoryInput,
  proposalIdInput,
  proposalSchema,
  proposalSummarySchema,
  updateProposalInput,
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

  cancel: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/proposals/{proposalId}/cancel',
        tags,
        summary: "Cancel a proposal (its author while open; the DAO's owner, admins and moderators)",
      },
    })
    .input(cancelProposalInput)
    .output(proposalSchema)
    .mutation(({ ctx, input }) => cancelProposal(ctx.svc, { principal: ctx.principal, ...input })),

  update: activeProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/proposals/{proposalId}',
        tags,
        summary: "Edit a proposal before its start (its author, the DAO's owner and admins)",
      },
    })
    .input(updateProposalInput)
    .output(proposalSchema)
    .mutation(({ ctx, input }) => updateProposal(ctx.svc, { principal: ctx.principal, input })),

  history: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/proposals/{proposalId}/history',
        tags,
        protect: false,
        summary: "A proposal's edits and cancellation, newest first",
      },
    })
    .input(proposalHistoryInput)
    .output(paged(historyEntrySchema))
    .query(({ ctx, input }) => proposalHistory(ctx.svc, input)),
});
