import { VOTE_SIGNING_GUIDE } from '@plenum/core';
import { eip712VoteGuideSchema } from '@plenum/validators';
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
        summary: 'EIP-712 domain and types of a signed vote, and how each voting system signs its ballot',
      },
    })
    .input(z.void())
    .output(eip712VoteGuideSchema)
    .query(() => VOTE_SIGNING_GUIDE),
});
