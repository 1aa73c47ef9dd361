import { AppError, eventStream, type LiveEventSource } from '@plenum/core';
import { eventSubscriptionInput } from '@plenum/validators';
import { tracked } from '@trpc/server';
import type { Context } from '../context';
import { authedProcedure, router } from '../trpc';

function eventSource(ctx: Context): LiveEventSource {
  const bus = ctx.svc.eventBus as LiveEventSource | undefined;
  if (!bus) throw new AppError('SERVICE_UNAVAILABLE', 'Live events are not available on this server');
  return bus;
}

export const eventsRouter = router({
  /**
   * The governance event stream (SPEC section 4): stored events after `lastEventId` first, then live
   * ones, each as `tracked(id, envelope)` so that the client resumes where it stopped on reconnect.
   */
  stream: authedProcedure.input(eventSubscriptionInput).subscription(({ ctx, input, signal }) => {
    const source = eventSource(ctx);
    const filter = { events: input.events, daoId: input.daoId, proposalId: input.proposalId };
    const params = { filter, lastEventId: input.lastEventId, signal };
    return eventStream(source, ctx.svc.db, params, (e) => tracked(String(e.id), e));
  }),
});
