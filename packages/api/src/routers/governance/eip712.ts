import { VOTE_TYPED_DATA_SPEC } from '@plenum/core';
import { eip712VoteSchema } from '@plenum/validators';
import { z } from 'zod';
import { publicProcedure, router } from '../../trpc';

export const eip712Router = router({
  vote: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/eip712/vote',
        tags: ['governance: votes'],
        protect: false,
        summary: 'EIP-712 domain and types of a signed vote',
      },
    })
    .input(z.void())
    .output(eip712VoteSchema)
    .query(() => VOTE_TYPED_DATA_SPEC),
});
