import { delegationOf, listDelegates, setDelegateStatement } from '@plenum/core';
import {
  delegateSchema,
  delegationOfInput,
  delegationOfSchema,
  listDelegatesInput,
  paged,
  setStatementInput,
  statementSchema,
} from '@plenum/validators';
import { activeProcedure, publicProcedure, router } from '../../trpc';

const tags = ['governance: delegation'];

/** Reading delegations and delegate statements (docs/governance.md, "Reading delegations"). */
export const delegatesRouter = router({
  list: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/daos/{daoId}/delegates',
        tags,
        protect: false,
        summary: 'Delegates in a DAO, by delegated weight, then address',
        description:
          'Every address that is a delegate in the DAO or has a statement there, with its delegators, their weight and its own now (current balances, or 1 per member in equal DAOs), its statement, and how many started proposals it voted on.',
      },
    })
    .input(listDelegatesInput)
    .output(paged(delegateSchema))
    .query(({ ctx, input }) => listDelegates(ctx.svc, input)),

  of: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/daos/{daoId}/delegation/{address}',
        tags,
        protect: false,
        summary: "An address's delegate and its delegators (paged, in address order)",
        description:
          "For an erc20-votes token DAO, `chainDelegate` is the token's own delegate of the address, read " +
          'from the chain at the newest block (the delegation that counts there).',
      },
      errors: { 400: ['VALIDATION_FAILED', 'CHAIN_NOT_CONFIGURED'], 503: ['CHAIN_UNAVAILABLE'] },
    })
    .input(delegationOfInput)
    .output(delegationOfSchema)
    .query(({ ctx, input }) => delegationOf(ctx.svc, input)),

  setStatement: activeProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/daos/{daoId}/delegates/{address}/statement',
        tags,
        summary: "The address's owner: write its delegate statement (markdown; empty deletes it)",
        description:
          'Up to 10,000 characters after trimming, kept as text. Any address may have one, member or not; the DAO must be ACTIVE. An empty statement deletes it and answers 200 with statement "".',
      },
      errors: { 400: ['VALIDATION_FAILED'], 403: ['NOT_YOUR_ADDRESS'], 409: ['DAO_NOT_ACTIVE'] },
    })
    .input(setStatementInput)
    .output(statementSchema)
    .mutation(({ ctx, input }) => setDelegateStatement(ctx.svc, { userId: ctx.principal.userId, ...input })),
});
