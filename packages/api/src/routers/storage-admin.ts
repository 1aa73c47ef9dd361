import { collectGarbage } from '@plenum/core';
import { gcReportSchema } from '@plenum/validators';
import { z } from 'zod';
import { adminProcedure, router } from '../trpc';
import { storageOf } from './storage';

/** Storage administration: role admin only (403 otherwise); audited. */
export const storageAdminRouter = router({
  gc: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/storage/gc',
        tags: ['admin', 'storage'],
        summary:
          'Garbage collection of the embedded IPFS node: removes blocks no pin needs; answers with the run’s report (one run at a time: a request during a run joins it). Kubo: 409 GC_NOT_SUPPORTED',
      },
      successStatus: 202,
      errors: { 409: ['GC_NOT_SUPPORTED'] },
    })
    .input(z.void())
    .output(gcReportSchema)
    .mutation(({ ctx }) =>
      collectGarbage(storageOf(ctx), { trigger: 'admin', actorId: ctx.principal.userId }),
    ),
});
