import { addMember, bulkAddMembers, listMembers, removeMember, setTokenBalance } from '@plenum/core';
import {
  addMemberInput,
  bulkMembersInput,
  bulkMembersSchema,
  cursorPaged,
  listMembersInput,
  memberPathInput,
  memberSchema,
  membershipSchema,
  setBalanceInput,
} from '@plenum/validators';
import { z } from 'zod';
import { activeProcedure, publicProcedure, router } from '../../trpc';

const tags = ['governance: members'];

export const membersRouter = router({
  add: activeProcedure
    .meta({
      openapi: { method: 'POST', path: '/daos/{daoId}/members', tags, summary: 'Owner: add a member' },
      successStatus: 201,
      errors: {
        403: ['NOT_DAO_ADMIN', 'NOT_YOUR_ADDRESS', 'WALLET_REQUIRED'],
        409: ['ALREADY_MEMBER', 'DAO_NOT_ACTIVE'],
      },
    })
    .input(addMemberInput)
    .output(membershipSchema)
    .mutation(({ ctx, input }) => addMember(ctx.svc, { userId: ctx.principal.userId, ...input })),

  list: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/daos/{daoId}/members',
        tags,
        protect: false,
        summary: 'Members with token balances, newest first',
      },
    })
    .input(listMembersInput)
    .output(cursorPaged(memberSchema))
    .query(({ ctx, input }) => listMembers(ctx.svc, input)),

  remove: activeProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/daos/{daoId}/members/{memberAddress}',
        tags,
        summary: 'Owner: remove a member (not the owner)',
      },
      successStatus: 204,
      errors: { 400: ['OWNER_IS_MEMBER'], 403: ['NOT_DAO_ADMIN', 'NOT_YOUR_ADDRESS', 'WALLET_REQUIRED'] },
    })
    .input(memberPathInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await removeMember(ctx.svc, { userId: ctx.principal.userId, ...input });
    }),

  setBalance: activeProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/daos/{daoId}/members/{memberAddress}',
        tags,
        summary: "Owner: set a member's token balance (token-weighted DAOs)",
      },
      errors: {
        400: ['NOT_TOKEN_WEIGHTED'],
        403: ['NOT_DAO_ADMIN', 'NOT_YOUR_ADDRESS', 'WALLET_REQUIRED'],
        409: ['BALANCES_FROM_CHAIN'],
      },
    })
    .input(setBalanceInput)
    .output(membershipSchema)
    .mutation(({ ctx, input }) => setTokenBalance(ctx.svc, { userId: ctx.principal.userId, ...input })),

  bulk: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/daos/{daoId}/members/bulk',
        tags,
        summary: 'Owner or admin: add up to 1,000 members at once (bad entries reported, not fatal)',
      },
      errors: { 403: ['NOT_DAO_ADMIN', 'NOT_YOUR_ADDRESS', 'WALLET_REQUIRED'], 409: ['DAO_NOT_ACTIVE'] },
    })
    .input(bulkMembersInput)
    .output(bulkMembersSchema)
    .mutation(({ ctx, input }) => bulkAddMembers(ctx.svc, { userId: ctx.principal.userId, ...input })),
});
