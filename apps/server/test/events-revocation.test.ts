import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { append, newId, socketSubscriber, subscribed, trpcSubscriber, until, vote } from './support/events';
import { activeUser } from './support/factories';
import { apiClient } from './support/http';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { EVENTS_REVALIDATE_MS: '100' } });
});
afterAll(() => t.close());

describe('an open event stream whose token ends', () => {
  it('is closed on both transports once the session is gone', async () => {
    const api = apiClient(t.url);
    const user = await activeUser(api);
    const other = await activeUser(api);
    const daoId = newId();
    const trpc = trpcSubscriber(t, user.token, { daoId });
    const sio = socketSubscriber(t, { token: user.token }, { daoId });
    const stays = trpcSubscriber(t, other.token, { daoId });
    let disconnected = '';
    sio.socket.on('disconnect', (reason) => {
      disconnected = reason;
    });
    try {
      await sio.connected;
      await subscribed(t, { daoId }, 3);
      await append(t, [vote(daoId, newId(), 1)]);
      await Promise.all([trpc.waitFor(1), sio.waitFor(1), stays.waitFor(1)]);

      expect((await api.post('/auth/logout', undefined, { token: user.token })).status).toBe(204);
      await until(() => trpc.errors.length > 0 && disconnected !== '', 'both streams to end');
      expect((trpc.errors[0] as { data?: { code?: string } }).data?.code).toBe('UNAUTHORIZED');
      expect(disconnected).toBe('io server disconnect');

      await append(t, [vote(daoId, newId(), 2)]);
      await stays.waitFor(2);
      expect(trpc.events).toHaveLength(1);
      expect(sio.events).toHaveLength(1);
    } finally {
      for (const s of [trpc, sio, stays]) s.close();
    }
  });
});
