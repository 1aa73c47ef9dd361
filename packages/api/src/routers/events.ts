import { AppError, eventStream, type LiveEventSource, resolveToken } from '@plenum/core';
import { eventSubscriptionInput } from '@plenum/validators';
import { tracked } from '@trpc/server';
import type { Context } from '../context';
import { toTRPCError } from '../errors';
import { authedProcedure, router } from '../trpc';

function eventSource(ctx: Context): LiveEventSource {
  const bus = ctx.svc.events;
  if (!bus) throw new AppError('SERVICE_UNAVAILABLE', 'Live events are not available on this server');
  return bus;
}

export const eventsRouter = router({
  /**
   * The governance event stream (docs/events.md, "Subscribing"): stored events after `lastEventId` first, then live
   * ones, each as `tracked(id, envelope)` so that the client resumes where it stopped on reconnect.
   */
  stream: authedProcedure.input(eventSubscriptionInput).subscription(({ ctx, input, signal }) => {
    const source = eventSource(ctx);
    // one slot per stream, given back when it ends, when it is stopped, or when its connection closes
    // (whichever comes first: the adapter may drop a stream it never iterated)
    const release = source.admit?.(ctx.principal!.userId, ctx.connection?.streams);
    if (release) signal?.addEventListener('abort', release, { once: true });
    const filter = { events: input.events, daoId: input.daoId, proposalId: input.proposalId };
    const token = ctx.token;
    const revalidate = token && {
      everyMs: source.revalidateMs ?? 60_000,
      check: async () => (await resolveToken(ctx.svc, { token })) !== null,
    };
    const params = {
      filter,
      lastEventId: input.lastEventId,
      signal,
      revalidate: revalidate || undefined,
      // errors thrown while iterating bypass the procedure's error middleware: map here
      mapError: (err: AppError) => toTRPCError(err) ?? err,
      pace: ctx.connection?.pace,
      release,
    };
    return eventStream(ctx.svc, { ...params, source, wrap: (e) => tracked(String(e.id), e) });
  }),
});
