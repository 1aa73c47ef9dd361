'use client';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSessionToken } from '../session';
import { useTRPCClient } from '../trpc';
import { reconnectIfSessionChanged } from './ws-client';

export type LiveEventType =
  | 'dao_created'
  | 'proposal_submitted'
  | 'vote_cast'
  | 'proposal_status_changed'
  | 'comment_posted'
  | 'comment_updated';

/** The event envelope (docs/events.md, "The envelope"). */
export interface LiveEvent {
  id: number;
  type: LiveEventType;
  daoId: string;
  proposalId?: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

export interface LiveFilter {
  daoId?: string;
  proposalId?: string;
  events?: LiveEventType[];
}

interface Handlers {
  onEvent: (event: LiveEvent) => void;
  /**
   * the server has subscribed (or resubscribed): refetch with `refetchFresh`, since what happened
   * before the stream began is not replayed
   */
  onResync?: () => void;
}

/**
 * Subscribes to the governance event stream over the WebSocket while signed in (the stream needs a
 * session). `live` is false when signed out or while the socket is down: callers poll then. After a
 * reconnect the client resumes from the last event id, so nothing is missed.
 */
export function useLiveEvents(filter: LiveFilter | null, handlers: Handlers): { live: boolean } {
  const client = useTRPCClient();
  const token = useSessionToken();
  const [live, setLive] = useState(false);
  const handlersRef = useRef(handlers);
  handlersRef.current = handlers;
  const key = filter ? JSON.stringify(filter) : null;

  useEffect(() => {
    if (!token || key === null) {
      setLive(false);
      return;
    }
    const input = JSON.parse(key) as LiveFilter;
    let stop: (() => void) | null = null;
    let cancelled = false;
    void reconnectIfSessionChanged(token).then(() => {
      if (cancelled) return;
      const sub = client.events.stream.subscribe(input, {
        onStarted: () => {
          setLive(true);
          handlersRef.current.onResync?.();
        },
        onData: (tracked) => handlersRef.current.onEvent(tracked.data as LiveEvent),
        onConnectionStateChange: (state) => setLive(state.state === 'pending'),
        onError: () => setLive(false),
        onStopped: () => setLive(false),
      });
      stop = () => sub.unsubscribe();
    });
    return () => {
      cancelled = true;
      stop?.();
      setLive(false);
    };
  }, [client, token, key]);

  return { live };
}

/**
 * Refetches with reads sent now. A read already in flight may have been answered before the event or
 * the subscription: an invalidation would join it rather than send a new one when the query has no
 * data yet, so it is cancelled first.
 */
export async function refetchFresh(queryClient: QueryClient, queryKeys: QueryKey[]) {
  await Promise.all(queryKeys.map((queryKey) => queryClient.cancelQueries({ queryKey })));
  await Promise.all(queryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** How often to poll a query that live events would otherwise keep fresh. */
export const pollWhenNotLive = (live: boolean, ms = 4_000): number | false => (live ? false : ms);
