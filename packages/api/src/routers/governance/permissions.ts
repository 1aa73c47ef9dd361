import { getDaoPermissions } from '@plenum/core';
import { daoPermissionsInput, daoPermissionsSchema } from '@plenum/validators';
import { publicProcedure, router } from '../../trpc';

const tags = ['governance: daos'];

export const permissionsRouter = router({
  get: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/daos/{daoId}/permissions/{address}',
        tags,
        protect: false,
        summary: 'What an address may do in a DAO (role, settings, members, cancel, propose)',
      },
    })
    .input(daoPermissionsInput)
    .output(daoPermissionsSchema)
    .query(({ ctx, input }) => getDaoPermissions(ctx.svc, input)),
});
