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
        emailVerificationRequired: z.boolean(),
        passwordPolicy: passwordPolicySchema,
      }),
    )
    .query(({ ctx }) => ({
      name: 'Plenum',
      version: ctx.svc.version,
      emailProviderConfigured: ctx.svc.emailProviderConfigured,
      emailVerificationRequired: ctx.svc.config.emailVerificationRequired,
      passwordPolicy: ctx.svc.config.passwordPolicy,
    })),
});
