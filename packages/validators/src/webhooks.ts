import { z } from 'zod';
import { isoDateTime, paged, pageQuery, uuid } from './common';

/** Outbound webhooks (docs/webhooks.md). Which events fit which subscription is checked in core. */
export const webhookEventName = z.string().min(1).max(64);

/** The events each kind of webhook may ask for (docs/webhooks.md, "Subscribing"), for forms. */
export const DAO_WEBHOOK_EVENT_NAMES = [
  'dao_updated',
  'proposal_submitted',
  'proposal_updated',
  'proposal_status_changed',
  'vote_cast',
  'delegation_changed',
  'comment_posted',
  'comment_updated',
] as const;
export const STORAGE_WEBHOOK_EVENT_NAMES = ['ipfs:pin.verified', 'ipfs:pin.failed'] as const;

const webhookUrl = z
  .url({ protocol: /^https?$/, error: 'must be an https URL' })
  .max(2000)
  .meta({ description: 'https only (http too when WEBHOOK_ALLOW_PRIVATE_NETWORKS=true)' });
const webhookEvents = z.array(webhookEventName).min(1).max(20);

export const createWebhookInput = z.strictObject({
  url: webhookUrl,
  events: webhookEvents.meta({
    description: `with daoId: ${DAO_WEBHOOK_EVENT_NAMES.join(', ')}; without: ${STORAGE_WEBHOOK_EVENT_NAMES.join(', ')}`,
  }),
  daoId: uuid
    .nullish()
    .meta({ description: "a DAO's events (its owner and admins); omitted: your own storage events" }),
});

export const updateWebhookInput = z.strictObject({
  id: uuid,
  url: webhookUrl.optional(),
  events: webhookEvents.optional(),
  enabled: z.boolean().optional(),
});

export const webhookIdInput = z.strictObject({ id: uuid });
export const listWebhooksInput = z.strictObject({ daoId: uuid.optional() });
export const webhookDeliveriesInput = z.strictObject({ id: uuid, ...pageQuery });
export const redeliverInput = z.strictObject({ id: uuid, deliveryId: uuid });

export const webhookSchema = z.object({
  id: uuid,
  url: z.string(),
  events: z.array(z.string()),
  daoId: uuid.nullable(),
  enabled: z.boolean(),
  disabledAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export const createdWebhookSchema = webhookSchema.extend({
  secret: z.string().meta({ description: 'the signing secret (whsec_…), shown this once' }),
});
export const webhookSecretSchema = z.object({ id: uuid, secret: z.string() });

export const webhookDeliverySchema = z.object({
  id: uuid,
  webhookId: uuid,
  eventType: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempt: z.number().int().meta({ description: 'attempts made so far' }),
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  responseBody: z.string().nullable().meta({ description: 'the first 1 KiB of the last response' }),
  error: z.string().nullable(),
  nextAttemptAt: isoDateTime.nullable(),
  lastAttemptAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});
export const webhookDeliveriesSchema = paged(webhookDeliverySchema);
