import { createHash } from 'node:crypto';

/** After the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (docs/webhooks.md, "Delivery"). */
export const RETRY_DELAYS_MS = [5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** a claimed row is retried after this long if its instance died while sending */
export const LEASE_MS = 60_000;
/** deliveries one pass aims to send */
export const DELIVERY_BATCH = 100;

/** where a delivery stands after an attempt, `attempts` counting that attempt */
export function afterAttempt(params: { ok: boolean; attempts: number; at: Date }) {
  const exhausted = !params.ok && params.attempts >= MAX_ATTEMPTS;
  const status = params.ok ? 'succeeded' : exhausted ? 'failed' : 'pending';
  const next =
    params.ok || exhausted
      ? params.at
      : new Date(params.at.getTime() + RETRY_DELAYS_MS[params.attempts - 1]!);
  return { status, exhausted, next } as const;
}

// a fixed namespace of this server's webhook deliveries (RFC 9562 name-based ids)
const NAMESPACE = Buffer.from('6b1b0c2e9f7a4d8e8a35c1f0d2e4b7a9', 'hex');

/**
 * The id of the delivery of stored event `eventId` to webhook `webhookId`: a name-based UUID (version 5)
 * of the pair, known before the first attempt, so every fan-out of the event (again after a crash, or by
 * another instance after a lease ran out) sends the same `webhook-id` and writes the same row
 * (docs/webhooks.md, "Delivery").
 */
export function deliveryIdFor(webhookId: string, eventId: number): string {
  const hash = createHash('sha1').update(NAMESPACE).update(`${webhookId}/${eventId}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
