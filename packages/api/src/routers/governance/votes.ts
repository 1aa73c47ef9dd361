import {
  castVote,
  getResults,
  getVote,
  getVoterVote,
  getVotingPower,
  listVotes,
  voteReceipt,
} from '@plenum/core';
import {
  castVoteInput,
  castVoteOutput,
  cursorPaged,
  proposalIdInput,
  resultsSchema,
  voteIdInput,
  voteReceiptSchema,
  voterVoteInput,
  voteSchema,
  votesOfProposalInput,
  votingPowerInput,
  votingPowerSchema,
} from '@plenum/validators';
import { publicProcedure, router } from '../../trpc';

const tags = ['governance: votes'];

export const votesRouter = router({
  // public: a vote is authorized by a session owning voterAddress or, with no session, by an EIP-712
  // signature of voterAddress; castVote checks both
  cast: publicProcedure
    .meta({
      optionalAuth: true,
      openapi: {
        method: 'POST',
        path: '/votes',
        tags,
        protect: false,
        summary: 'Cast a vote (session, or EIP-712 signature + timestamp)',
      },
      successStatus: 201,
      errors: {
        401: ['NOT_SIGNED_IN', 'INVALID_SIGNATURE', 'SIGNATURE_EXPIRED', 'SIGNATURE_FROM_FUTURE'],
        403: ['NOT_ELIGIBLE', 'NOT_YOUR_ADDRESS', 'EMAIL_NOT_VERIFIED'],
        409: ['PROPOSAL_NOT_ACTIVE', 'DAO_NOT_ACTIVE', 'ALREADY_VOTED', 'STALE_SIGNATURE'],
      },
    })
    .input(castVoteInput)
    .output(castVoteOutput)
    .mutation(({ ctx, input }) => castVote(ctx.svc, { principal: ctx.principal, input })),

  get: publicProcedure
    .meta({
      optionalAuth: true,
      openapi: { method: 'GET', path: '/votes/{voteId}', tags, protect: false, summary: 'A vote' },
    })
    .input(voteIdInput)
    .output(voteSchema)
    .query(({ ctx, input }) => getVote(ctx.svc, { voteId: input.voteId, viewer: ctx.principal })),

  receipt: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/votes/{voteId}/receipt',
        tags,
        protect: false,
        summary:
          "A vote's receipt once its proposal closed: its leaf in the proposal's record and the inclusion proof",
      },
      errors: { 409: ['RECORD_NOT_READY'], 503: ['STORAGE_UNAVAILABLE'] },
    })
    .input(voteIdInput)
    .output(voteReceiptSchema)
    .query(({ ctx, input }) => voteReceipt(ctx.svc, { voteId: input.voteId })),

  byProposal: publicProcedure
    .meta({
      optionalAuth: true,
      openapi: {
        method: 'GET',
        path: '/votes/proposal/{proposalId}',
        tags,
        protect: false,
        summary:
          'Votes of a proposal, paged: newest first, oldest first or by weight; optionally only those supporting one option',
      },
    })
    .input(votesOfProposalInput)
    .output(cursorPaged(voteSchema))
    .query(({ ctx, input }) => listVotes(ctx.svc, { ...input, viewer: ctx.principal })),

  byVoter: publicProcedure
    .meta({
      optionalAuth: true,
      openapi: {
        method: 'GET',
        path: '/votes/proposal/{proposalId}/voter/{voterAddress}',
        tags,
        protect: false,
        summary: "A voter's vote on a proposal (404 when none)",
      },
    })
    .input(voterVoteInput)
    .output(voteSchema)
    .query(({ ctx, input }) => getVoterVote(ctx.svc, { ...input, viewer: ctx.principal })),

  results: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/votes/proposal/{proposalId}/results',
        tags,
        protect: false,
        summary: 'Current results and outcome',
      },
    })
    .input(proposalIdInput)
    .output(resultsSchema)
    .query(({ ctx, input }) => getResults(ctx.svc, { proposalId: input.proposalId })),

  power: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/proposals/{proposalId}/voting-power/{address}',
        tags,
        protect: false,
        summary: 'Whether an address may vote on a proposal, with which weight, and why not',
      },
    })
    .input(votingPowerInput)
    .output(votingPowerSchema)
    .query(({ ctx, input }) => getVotingPower(ctx.svc, input)),
});
