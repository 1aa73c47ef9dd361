import { DAO_WEBHOOK_EVENT_NAMES, STORAGE_WEBHOOK_EVENT_NAMES } from '@plenum/validators';
import { describe, expect, it } from 'vitest';
import { DAO_WEBHOOK_EVENTS, STORAGE_WEBHOOK_EVENTS } from './webhooks/subscriptions';

// The web app's forms offer the event names from @plenum/validators; the server accepts those in
// webhooks/subscriptions.ts (docs/webhooks.md, "Subscribing"). A name added to one list only would be
// offered and refused, or accepted and never offered.
describe('webhook event names', () => {
  it("the forms offer exactly the DAO events the server accepts, in the server's order", () => {
    expect([...DAO_WEBHOOK_EVENT_NAMES]).toEqual([...DAO_WEBHOOK_EVENTS]);
  });
  it('and exactly the storage events', () => {
    expect([...STORAGE_WEBHOOK_EVENT_NAMES]).toEqual([...STORAGE_WEBHOOK_EVENTS]);
  });
});
