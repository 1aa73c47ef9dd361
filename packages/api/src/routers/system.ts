import { allowedAvatarMimes, outboxReadable } from '@plenum/core';
import { passwordPolicySchema } from '@plenum/validators';
import { z } from 'zod';
import { publicProcedure, router } from '../trpc';

/** For the web app: what this server is and how it is configured (no REST path: /health serves programs). */
export const systemRouter = router({
  info: publicProcedure
    .input(z.void())
    .output(
      z.object({
        name: z.string(),
        version: z.string(),
        emailProviderConfigured: z.boolean(),
        /** the development outbox answers this caller (docs/operations.md, "Email"): the app links it only then */
        outboxAvailable: z.boolean(),
        emailVerificationRequired: z.boolean(),
        /** the terms of use registration asks to accept (TERMS_URL); null: no terms, no checkbox */
        termsUrl: z.string().nullable(),
        passwordPolicy: passwordPolicySchema,
        /** what the upload routes accept, so a page can say it and check a file before sending it */
        uploads: z.object({
          maxFileSize: z.number().int(),
          allowedFileTypes: z.array(z.string()),
          maxAvatarSize: z.number().int(),
          avatarTypes: z.array(z.string()),
          /** POST /ipfs/upload takes several files as one folder (wrapWithDirectory; docs/storage.md) */
          directoryUploads: z.boolean(),
        }),
        /** the first IPFS_GATEWAY_URLS entry, for public links to a CID; null: none configured */
        ipfsGateway: z.string().nullable(),
      }),
    )
    .query(({ ctx }) => ({
      name: 'Plenum',
      version: ctx.svc.version,
      emailProviderConfigured: ctx.svc.emailProviderConfigured,
      outboxAvailable: outboxReadable({
        emailProviderConfigured: ctx.svc.emailProviderConfigured,
        appUrl: ctx.svc.config.appUrl,
        socketAddress: ctx.socketAddress,
        principal: ctx.principal,
      }),
      emailVerificationRequired: ctx.svc.config.emailVerificationRequired,
      termsUrl: ctx.svc.config.termsUrl ?? null,
      passwordPolicy: ctx.svc.config.passwordPolicy,
      uploads: {
        maxFileSize: ctx.svc.config.storage.maxFileSize,
        allowedFileTypes: ctx.svc.config.storage.allowedFileTypes,
        maxAvatarSize: ctx.svc.config.users.maxAvatarSize,
        avatarTypes: [...allowedAvatarMimes(ctx.svc.config.users.allowedImageTypes)],
        directoryUploads: true,
      },
      ipfsGateway: ctx.svc.config.storage.gatewayUrls[0] ?? null,
    })),
});
