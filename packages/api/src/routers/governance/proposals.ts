import {
  cancelProposal,
  createProposal,
  getProposal,
  listProposals,
  proposalHistory,
  proposalRecord,
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
  proposalRecordSchema,
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
      errors: {
        403: ['NOT_YOUR_ADDRESS', 'NOT_A_MEMBER', 'NOT_ALLOWED_TO_PROPOSE'],
        409: ['DAO_NOT_ACTIVE', 'TOO_MANY_ACTIVE_PROPOSALS'],
        503: ['CHAIN_UNAVAILABLE'],
      },
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
      errors: { 403: ['NOT_DAO_ADMIN', 'NOT_YOUR_ADDRESS', 'WALLET_REQUIRED'], 409: ['PROPOSAL_CLOSED'] },
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
      errors: {
        403: ['NOT_DAO_ADMIN', 'NOT_YOUR_ADDRESS', 'WALLET_REQUIRED'],
        409: ['PROPOSAL_NOT_PENDING'],
      },
    })
    .input(updateProposalInput)
    .output(proposalSchema)
    .mutation(({ ctx, input }) => updateProposal(ctx.svc, { principal: ctx.principal, input })),

  record: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/proposals/{proposalId}/record',
        tags,
        protect: false,
        summary:
          "A closed proposal's verifiable record: its CID, the CAR download and the server's record key",
      },
      errors: { 409: ['RECORD_NOT_READY'] },
    })
    .input(proposalIdInput)
    .output(proposalRecordSchema)
    .query(({ ctx, input }) => proposalRecord(ctx.svc, { proposalId: input.proposalId })),

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
