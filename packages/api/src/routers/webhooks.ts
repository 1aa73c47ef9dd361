import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  queueTestDelivery,
  redeliver,
  rotateWebhookSecret,
  updateWebhook,
} from '@plenum/core';
import {
  createdWebhookSchema,
  createWebhookInput,
  listWebhooksInput,
  redeliverInput,
  updateWebhookInput,
  webhookDeliveriesInput,
  webhookDeliveriesSchema,
  webhookDeliverySchema,
  webhookIdInput,
  webhookSchema,
  webhookSecretSchema,
} from '@plenum/validators';
import { z } from 'zod';
import { activeProcedure, router } from '../trpc';

const tags = ['webhooks'];
const mine = (ctx: { principal: { userId: string } }, id: string) => ({
  userId: ctx.principal.userId,
  webhookId: id,
});

/** Outbound webhooks (docs/webhooks.md): subscriptions, their deliveries, a test, redelivery. */
export const webhooksRouter = router({
  create: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhooks',
        tags,
        summary: 'Subscribe an endpoint (the secret is shown once)',
      },
      successStatus: 201,
    })
    .input(createWebhookInput)
    .output(createdWebhookSchema)
    .mutation(({ ctx, input }) => createWebhook(ctx.svc, { userId: ctx.principal.userId, ...input })),

  list: activeProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/webhooks',
        tags,
        summary: "Your webhooks, or a DAO's (owner and admins)",
      },
      scope: 'account',
    })
    .input(listWebhooksInput)
    .output(z.object({ items: z.array(webhookSchema) }))
    .query(({ ctx, input }) => listWebhooks(ctx.svc, { userId: ctx.principal.userId, daoId: input.daoId })),

  update: activeProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/webhooks/{id}',
        tags,
        summary: 'Change or enable/disable a webhook',
      },
    })
    .input(updateWebhookInput)
    .output(webhookSchema)
    .mutation(({ ctx, input: { id, ...rest } }) => updateWebhook(ctx.svc, { ...mine(ctx, id), ...rest })),

  delete: activeProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/webhooks/{id}',
        tags,
        summary: 'Delete a webhook and its deliveries',
      },
      successStatus: 204,
    })
    .input(webhookIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteWebhook(ctx.svc, mine(ctx, input.id))),

  rotateSecret: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/rotate-secret',
        tags,
        summary: 'A new signing secret, shown once',
      },
    })
    .input(webhookIdInput)
    .output(webhookSecretSchema)
    .mutation(({ ctx, input }) => rotateWebhookSecret(ctx.svc, mine(ctx, input.id))),

  test: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/test',
        tags,
        summary: 'Queue a webhook.test delivery now',
      },
      successStatus: 202,
    })
    .input(webhookIdInput)
    .output(webhookDeliverySchema)
    .mutation(({ ctx, input }) => queueTestDelivery(ctx.svc, mine(ctx, input.id))),

  deliveries: activeProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/webhooks/{id}/deliveries',
        tags,
        summary: "A webhook's deliveries, newest first",
      },
      scope: 'account',
    })
    .input(webhookDeliveriesInput)
    .output(webhookDeliveriesSchema)
    .query(({ ctx, input }) =>
      listDeliveries(ctx.svc, { ...mine(ctx, input.id), page: input.page, limit: input.limit }),
    ),

  redeliver: activeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/webhooks/{id}/deliveries/{deliveryId}/redeliver',
        tags,
        summary: "Send a delivery's event again (a new delivery)",
      },
      successStatus: 202,
    })
    .input(redeliverInput)
    .output(webhookDeliverySchema)
    .mutation(({ ctx, input }) =>
      redeliver(ctx.svc, { ...mine(ctx, input.id), deliveryId: input.deliveryId }),
    ),
});
