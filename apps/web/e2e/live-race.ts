import type { Page, Route } from '@playwright/test';

const FRAME_WAIT_MS = 20_000;

// orders what the test sees of a page (frames relayed to it, reads it sends) in the order they happen
let seen = 0;

interface Waiter {
  /** the moment the awaited frame came, once it has */
  at: () => number | undefined;
  resolve: (at: number) => void;
}

function parse(text: string) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Sits between a page and the API's tRPC WebSocket: sees every frame before the page does, and can hold
 * back what the page sends (its subscriptions) until `releaseSubscriptions()`.
 */
export async function routeLive(page: Page) {
  const subscriptionsOf = new Map<string, Set<number>>();
  const startedAt = new Map<number, number>();
  const received: { frame: string; at: number }[] = [];
  const held: string[] = [];
  const waiters = new Set<Waiter>();
  let holding = false;
  let toServer: ((message: string) => void) | null = null;

  const wake = () => {
    for (const w of waiters) {
      const came = w.at();
      if (came === undefined) continue;
      waiters.delete(w);
      w.resolve(came);
    }
  };
  await page.routeWebSocket(
    (url) => url.pathname === '/trpc',
    (ws) => {
      const server = ws.connectToServer();
      toServer = (m) => server.send(m);
      ws.onMessage((message) => {
        const text = String(message);
        const sent = parse(text);
        for (const m of Array.isArray(sent) ? sent : [sent]) {
          const proposalId = m?.params?.input?.proposalId;
          if (m?.method !== 'subscription' || typeof proposalId !== 'string') continue;
          subscriptionsOf.set(proposalId, (subscriptionsOf.get(proposalId) ?? new Set()).add(m.id));
        }
        if (holding) held.push(text);
        else server.send(text);
        wake();
      });
      server.onMessage((message) => {
        const at = ++seen;
        const frame = String(message);
        received.push({ frame, at });
        const m = parse(frame);
        if (m?.result?.type === 'started') startedAt.set(m.id, at);
        ws.send(message);
        wake();
      });
    },
  );
  const when = (what: string, at: () => number | undefined) =>
    new Promise<number>((resolve, reject) => {
      const came = at();
      if (came !== undefined) return resolve(came);
      const w = { at, resolve };
      waiters.add(w);
      setTimeout(() => {
        if (waiters.delete(w)) reject(new Error(`no WebSocket frame: ${what}`));
      }, FRAME_WAIT_MS).unref();
    });
  const idsOf = (proposalId: string) => [...(subscriptionsOf.get(proposalId) ?? [])];
  return {
    holdSubscriptions() {
      holding = true;
    },
    releaseSubscriptions() {
      holding = false;
      for (const m of held.splice(0)) toServer?.(m);
    },
    /** the page has asked for the proposal's events (the request may be held) */
    subscribed: (proposalId: string) =>
      when(`subscription of ${proposalId} asked for`, () => (idsOf(proposalId).length ? seen : undefined)),
    /** resolves with the moment the server confirmed the proposal's subscription */
    started: (proposalId: string) =>
      when(`subscription of ${proposalId} started`, () =>
        idsOf(proposalId)
          .map((id) => startedAt.get(id))
          .find((at) => at !== undefined),
      ),
    voteCast: (proposalId: string) =>
      when(
        `vote_cast of ${proposalId}`,
        () => received.find((r) => r.frame.includes('"vote_cast"') && r.frame.includes(proposalId))?.at,
      ),
  };
}

/**
 * Answers every results read of a page at once on the server but hands the responses to the page only
 * on `release()`: reads slower than the WebSocket, as on a loaded machine.
 */
export async function holdResultsReads(page: Page) {
  const held: { route: Route; at: number; response: Awaited<ReturnType<Route['fetch']>> }[] = [];
  let released = false;
  await page.route(
    (url) => url.pathname.includes('governance.votes.results'),
    async (route) => {
      if (released) return route.continue();
      const at = ++seen;
      const response = await route.fetch();
      held.push({ route, at, response });
    },
  );
  return {
    /** reads of the proposal the page made after the moment `since` that the server has answered */
    answeredSince: (since: number, proposalId: string) =>
      held.filter((h) => h.at > since && h.route.request().url().includes(proposalId)).length,
    /** delivers the held responses and returns once the page has taken them in */
    async release() {
      released = true;
      await Promise.all(
        held.map(async ({ route, response }) => {
          // a read the page has cancelled meanwhile cannot be fulfilled any more: nothing to deliver
          await route.fulfill({ response }).catch(() => {});
          const received = await route
            .request()
            .response()
            .catch(() => null);
          await received?.finished();
        }),
      );
      // a response is parsed, cached and rendered over the next turns of the page's event loop
      await page.evaluate(
        () =>
          new Promise<void>((resolve) =>
            setTimeout(() => requestAnimationFrame(() => setTimeout(() => resolve(), 0)), 0),
          ),
      );
    },
  };
}
