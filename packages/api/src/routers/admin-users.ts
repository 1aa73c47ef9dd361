import {
  adminRevokeSessions,
  adminSendPasswordReset,
  getAdminUserDetail,
  listAuditLog,
  listUsers,
  reactivateUser,
  registrationsByDay,
  setStorageQuota,
  suspendUser,
  userStats,
} from '@plenum/core';
import {
  adminListUsersInput,
  adminSessionsRevokedSchema,
  adminStorageQuotaInput,
  adminUserDetailSchema,
  adminUserListSchema,
  auditEntrySchema,
  auditLogInput,
  messageSchema,
  paged,
  reactivateUserInput,
  registrationsInput,
  registrationsSchema,
  storageUsageSchema,
  suspendUserInput,
  userIdInput,
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

  get: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/users/{id}',
        tags,
        summary:
          'One user as the list shows it, with wallets, linked identities, second factors (kinds only), live sessions and owned DAOs',
      },
    })
    .input(userIdInput)
    .output(adminUserDetailSchema)
    .query(({ ctx, input }) => getAdminUserDetail(ctx.svc, input)),

  revokeSessions: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/users/{id}/sessions/revoke',
        tags,
        summary: 'End every session of a user at once (their access tokens stay); says how many ended',
      },
    })
    .input(userIdInput)
    .output(adminSessionsRevokedSchema)
    .mutation(({ ctx, input }) => adminRevokeSessions(ctx.svc, { adminId: ctx.principal.userId, ...input })),

  sendPasswordReset: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/users/{id}/password-reset',
        tags,
        summary: 'Mail the user a password reset link (their password stays until they use it)',
      },
      successStatus: 202,
    })
    .input(userIdInput)
    .output(messageSchema)
    .mutation(async ({ ctx, input }) => {
      await adminSendPasswordReset(ctx.svc, { adminId: ctx.principal.userId, ...input });
      return { message: 'A password reset link is on its way to the user.' };
    }),

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

  setStorageQuota: adminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/admin/users/{id}/storage-quota',
        tags,
        summary:
          "Set a user's storage quota in bytes (0 = unlimited, null = back to STORAGE_QUOTA_BYTES); answers their usage",
      },
    })
    .input(adminStorageQuotaInput)
    .output(storageUsageSchema)
    .mutation(({ ctx, input }) => setStorageQuota(ctx.svc, { adminId: ctx.principal.userId, ...input })),

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
        summary: 'Audit log of admin actions, newest first; filters action, actor, target, from, to',
      },
    })
    .input(auditLogInput)
    .output(paged(auditEntrySchema))
    .query(({ ctx, input }) => listAuditLog(ctx.svc, input)),
});
