import { listRoles, removeRole, setRole } from '@plenum/core';
import { listRolesInput, paged, removeRoleInput, roleSchema, setRoleInput } from '@plenum/validators';
import { z } from 'zod';
import { activeProcedure, publicProcedure, router } from '../../trpc';

const tags = ['governance: roles'];

export const rolesRouter = router({
  set: activeProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/daos/{daoId}/roles/{address}',
        tags,
        summary: 'Owner or admin: give an address a role (replacing the one it held)',
      },
      errors: { 403: ['NOT_DAO_ADMIN', 'NOT_YOUR_ADDRESS', 'WALLET_REQUIRED'], 409: ['OWNER_ROLE'] },
    })
    .input(setRoleInput)
    .output(roleSchema)
    .mutation(({ ctx, input }) => setRole(ctx.svc, { userId: ctx.principal.userId, ...input })),

  remove: activeProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/daos/{daoId}/roles/{address}',
        tags,
        summary: "Owner or admin: take an address's role",
      },
      successStatus: 204,
      errors: { 403: ['NOT_DAO_ADMIN', 'NOT_YOUR_ADDRESS', 'WALLET_REQUIRED'], 409: ['OWNER_ROLE'] },
    })
    .input(removeRoleInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await removeRole(ctx.svc, { userId: ctx.principal.userId, ...input });
    }),

  list: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/daos/{daoId}/roles',
        tags,
        protect: false,
        summary: 'Roles in a DAO, in the order granted (the owner holds none: it is an implicit admin)',
      },
    })
    .input(listRolesInput)
    .output(paged(roleSchema))
    .query(({ ctx, input }) => listRoles(ctx.svc, input)),
});
