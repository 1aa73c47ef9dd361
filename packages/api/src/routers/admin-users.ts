import {
  listAuditLog,
  listUsers,
  reactivateUser,
  registrationsByDay,
  suspendUser,
  userStats,
} from '@plenum/core';
import {
  adminListUsersInput,
  adminUserListSchema,
  auditEntrySchema,
  auditLogInput,
  paged,
  reactivateUserInput,
  registrationsInput,
  registrationsSchema,
  suspendUserInput,
  userReactivatedSchema,
  userStatsSchema,
  userSuspendedSchema,
} from '@plenum/validators';
import { z } from 'zod';
import { adminProcedure, router } from '../trpc';

const tags = ['admin'];

/** User administration: role admin only (403 FORBIDDEN otherwise); every change is audited. */
export const adminUsersRouter = router({
  list: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/users',
        tags,
        summary: 'List users (filters status, role, search over name and email; newest first)',
      },
    })
    .input(adminListUsersInput)
    .output(adminUserListSchema)
    .query(({ ctx, input }) => listUsers(ctx.svc, input)),

  suspend: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/users/{id}/suspend',
        tags,
        summary: 'Suspend an active or pending user; their sessions end at once',
      },
    })
    .input(suspendUserInput)
    .output(userSuspendedSchema)
    .mutation(({ ctx, input }) => suspendUser(ctx.svc, { adminId: ctx.principal.userId, ...input })),

  reactivate: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/users/{id}/reactivate',
        tags,
        summary: 'Reactivate a suspended user (back to the status before the suspension)',
      },
    })
    .input(reactivateUserInput)
    .output(userReactivatedSchema)
    .mutation(({ ctx, input }) => reactivateUser(ctx.svc, { adminId: ctx.principal.userId, ...input })),

  stats: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/stats',
        tags,
        summary: 'User statistics (deleted users excluded)',
      },
    })
    .input(z.void())
    .output(userStatsSchema)
    .query(({ ctx }) => userStats(ctx.svc)),

  registrations: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/stats/registrations',
        tags,
        summary: 'New accounts per UTC day, oldest first (deleted users excluded)',
      },
    })
    .input(registrationsInput)
    .output(registrationsSchema)
    .query(({ ctx, input }) => registrationsByDay(ctx.svc, { days: input.days })),

  auditLog: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/audit-log',
        tags,
        summary: 'Audit log of admin actions, newest first',
      },
    })
    .input(auditLogInput)
    .output(paged(auditEntrySchema))
    .query(({ ctx, input }) => listAuditLog(ctx.svc, input)),
});
