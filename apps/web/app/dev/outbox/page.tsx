'use client';
import { useQuery } from '@tanstack/react-query';
import { OutboxList } from '../../../components/outbox-list';
import { useTRPC } from '../../../lib/trpc';

export default function OutboxPage() {
  const trpc = useTRPC();
  const info = useQuery(trpc.system.info.queryOptions());
  return (
    <div className="stack">
      <h1>Development outbox</h1>
      {info.data?.emailProviderConfigured ? (
        <p>An email provider is configured: mail goes to real inboxes, so there is no outbox to show.</p>
      ) : info.data ? (
        <>
          <p className="muted">
            No email provider is configured, so mail is kept here instead of being sent.
          </p>
          <OutboxList />
        </>
      ) : (
        <p aria-live="polite">Loading…</p>
      )}
    </div>
  );
}
