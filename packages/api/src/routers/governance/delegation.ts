import { DELEGATION_TYPED_DATA_SPEC, removeDelegation, setDelegation } from '@plenum/core';
import {
  delegationSchema,
  eip712DelegationSchema,
  removeDelegationInput,
  setDelegationInput,
} from '@plenum/validators';
import { z } from 'zod';
import { publicProcedure, router } from '../../trpc';

const tags = ['governance: delegation'];

/** the refusals of a session or a signature, shared by both changes (docs/governance.md, "Delegating") */
const authErrors = {
  401: ['NOT_SIGNED_IN', 'INVALID_SIGNATURE', 'SIGNATURE_EXPIRED', 'SIGNATURE_FROM_FUTURE'],
} as const;

// public: a change is authorized by a session owning delegatorAddress or, with no session, by an EIP-712
// signature of delegatorAddress; the core checks both (as POST /votes)
export const delegationRouter = router({
  set: publicProcedure
    .meta({
      optionalAuth: true,
      openapi: {
        method: 'PUT',
        path: '/daos/{daoId}/delegation',
        tags,
        protect: false,
        summary: "Delegate a member's vote in a DAO (session, or EIP-712 signature + timestamp)",
        description:
          'One delegate per delegator and DAO: a new one replaces the old, the same one again changes nothing. ' +
          "Authorized by a session owning delegatorAddress, or by the delegator's EIP-712 signature of " +
          '`Delegation` (GET /eip712/delegation) with its timestamp, no account needed; a signed change must ' +
          "be newer than the delegator's last signed change in the DAO (409 STALE_SIGNATURE). Each change " +
          'fires `delegation_changed`.',
      },
      errors: {
        400: ['VALIDATION_FAILED', 'SELF_DELEGATION'],
        ...authErrors,
        403: ['NOT_YOUR_ADDRESS', 'EMAIL_NOT_VERIFIED', 'NOT_A_MEMBER'],
        409: ['DELEGATION_DISABLED', 'DAO_NOT_ACTIVE', 'STALE_SIGNATURE'],
        503: ['CHAIN_UNAVAILABLE'],
      },
    })
    .input(setDelegationInput)
    .output(delegationSchema)
    .mutation(({ ctx, input }) => setDelegation(ctx.svc, { principal: ctx.principal, input })),

  remove: publicProcedure
    .meta({
      optionalAuth: true,
      openapi: {
        method: 'DELETE',
        path: '/daos/{daoId}/delegation/{address}',
        tags,
        protect: false,
        summary: "Remove a delegator's delegate in a DAO (session, or EIP-712 signature + timestamp)",
        description:
          'A signed removal signs the same `Delegation` type with delegateAddress the zero address ' +
          '(0x0000000000000000000000000000000000000000) and sends `signature` and `timestamp` as query ' +
          "parameters (a DELETE has no body). Taken whatever the DAO's status and its delegation rule. " +
          '404 NO_DELEGATION when the delegator has no delegate.',
      },
      successStatus: 204,
      errors: {
        400: ['VALIDATION_FAILED'],
        ...authErrors,
        403: ['NOT_YOUR_ADDRESS', 'EMAIL_NOT_VERIFIED'],
        404: ['NO_DELEGATION'],
        409: ['STALE_SIGNATURE'],
      },
    })
    .input(removeDelegationInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await removeDelegation(ctx.svc, { principal: ctx.principal, input });
    }),

  typedData: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/eip712/delegation',
        tags,
        protect: false,
        summary: 'EIP-712 domain and types of a signed delegation change (the domain of signed votes)',
      },
    })
    .input(z.void())
    .output(eip712DelegationSchema)
    .query(() => DELEGATION_TYPED_DATA_SPEC),
});
