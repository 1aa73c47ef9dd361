import {
  type Actor,
  deleteUser,
  getPreferences,
  getPublicProfile,
  getUser,
  profilesByAddress,
  updatePreferences,
  updateUser,
} from '@plenum/core';
import {
  addressProfilesSchema,
  preferencesSchema,
  profilesByAddressInput,
  publicProfileSchema,
  updatePreferencesInput,
  updateUserInput,
  userIdInput,
  userSchema,
} from '@plenum/validators';
import { z } from 'zod';
import type { Context } from '../context';
import { authedProcedure, publicProcedure, router } from '../trpc';

const tags = ['users'];
const actorOf = (
  ctx: Pick<Context, 'principal'> & { principal: NonNullable<Context['principal']> },
): Actor => ({
  userId: ctx.principal.userId,
  role: ctx.principal.role,
});

/** Profiles and preferences. Signed-in pending users may use these (docs/accounts.md, "Account status"). */
export const usersRouter = router({
  get: authedProcedure
    .meta({
      openapi: { method: 'GET', path: '/users/{id}', tags, summary: 'The full user record (owner or admin)' },
    })
    .input(userIdInput)
    .output(userSchema)
    .query(({ ctx, input }) => getUser(ctx.svc, { actor: actorOf(ctx), id: input.id })),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/users/{id}',
        tags,
        summary: 'Update one’s own profile; preferences given here are merged',
      },
    })
    .input(updateUserInput)
    .output(userSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...patch } = input;
      return updateUser(ctx.svc, { actor: actorOf(ctx), id, patch });
    }),

  delete: authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/users/{id}',
        tags,
        summary: 'Soft-delete an account (owner or admin); its sessions and tokens end',
      },
      successStatus: 204,
    })
    .input(userIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteUser(ctx.svc, { actor: actorOf(ctx), id: input.id })),

  profile: publicProcedure
    .meta({
      optionalAuth: true,
      openapi: {
        method: 'GET',
        path: '/users/{id}/profile',
        tags,
        protect: false,
        summary: 'Public profile view (email only to the owner; private profiles only to the owner)',
      },
    })
    .input(userIdInput)
    .output(publicProfileSchema)
    .query(({ ctx, input }) =>
      getPublicProfile(ctx.svc, { requesterId: ctx.principal?.userId ?? null, id: input.id }),
    ),

  byAddress: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/profiles/by-address',
        tags,
        protect: false,
        summary: 'Names of the public profiles behind wallet addresses (up to 100 at once)',
      },
    })
    .input(profilesByAddressInput)
    .output(addressProfilesSchema)
    .query(({ ctx, input }) => profilesByAddress(ctx.svc, { addresses: input.addresses.split(',') })),

  preferences: authedProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/users/{id}/preferences',
        tags,
        summary: 'Preferences with defaults filled in (owner or admin)',
      },
    })
    .input(userIdInput)
    .output(preferencesSchema)
    .query(({ ctx, input }) => getPreferences(ctx.svc, { actor: actorOf(ctx), id: input.id })),

  updatePreferences: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/users/{id}/preferences',
        tags,
        summary: 'Deep-merge the given preferences (owner only)',
      },
    })
    .input(updatePreferencesInput)
    .output(preferencesSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...patch } = input;
      return updatePreferences(ctx.svc, { actor: actorOf(ctx), id, patch });
    }),
});
