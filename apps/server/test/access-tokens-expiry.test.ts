import { ManualClock } from '@plenum/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

/**
 * A personal access token without an end date expires after 90 days; one that never expires must be
 * asked for as `expiresAt: "never"` (docs/accounts.md, "Personal access tokens").
 */
const DAY = 86_400_000;
const clock = new ManualClock();
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp({ clock });
  api = apiClient(t.url);
});
afterAll(() => t.close());

const works = async (token: string) => (await api.get('/auth/me', { token })).status === 200;

describe('access token lifetime', () => {
  it('defaults to 90 days, and "never" is a choice said out loud', async () => {
    const user = await activeUser(api);
    const created = await api.post('/auth/tokens', { name: 'ci' }, { token: user.token });
    expect(created.status).toBe(201);
    expect(Date.parse(created.body.expiresAt) - clock.now().getTime()).toBe(90 * DAY);
    const forever = await api.post(
      '/auth/tokens',
      { name: 'kubo', expiresAt: 'never' },
      { token: user.token },
    );
    expect(forever.status).toBe(201);
    expect(forever.body.expiresAt).toBeNull();
    const until = new Date(clock.now().getTime() + 10 * DAY).toISOString();
    const dated = await api.post('/auth/tokens', { name: 'short', expiresAt: until }, { token: user.token });
    expect(Date.parse(dated.body.expiresAt)).toBe(Date.parse(until));
    expect(
      (await api.post('/auth/tokens', { name: 'x', expiresAt: 'later' }, { token: user.token })).status,
    ).toBe(400);

    clock.advance(90 * DAY - 1000);
    expect(await works(created.body.token)).toBe(true);
    clock.advance(2000);
    expect(await works(created.body.token)).toBe(false);
    clock.advance(3650 * DAY);
    expect(await works(forever.body.token)).toBe(true);
  });

  it('says so in the API document', async () => {
    const doc = (await api.get('/api/docs-json')).body;
    const schema = JSON.stringify(doc.paths['/auth/tokens'].post.requestBody);
    expect(schema).toContain('90 days');
    expect(schema).toContain('never');
  });
});
