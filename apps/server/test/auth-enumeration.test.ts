import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, uniqueEmail } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

// The real argon2id runs; the wrapper only counts the password verifications each request did. Counting
// the work makes the guarantee testable without timing it (the timing comparison lives in `npm run bench`).
const counted = vi.hoisted(() => ({ verify: 0 }));
vi.mock('@plenum/core/auth/password/hash', async (importOriginal) => {
  const real = await importOriginal<typeof import('@plenum/core/auth/password/hash')>();
  return {
    ...real,
    verifyPassword: (...args: Parameters<typeof real.verifyPassword>) => {
      counted.verify++;
      return real.verifyPassword(...args);
    },
  };
});

let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  api = apiClient(t.url);
});
afterAll(() => t?.close());
beforeEach(() => {
  counted.verify = 0;
});

const attempt = async (email: string, password: string) => {
  counted.verify = 0;
  const res = await api.post('/auth/login', { email, password });
  return { status: res.status, body: res.body, verifications: counted.verify };
};

describe('no user enumeration through login work', () => {
  it('does one argon2id verification for a wrong password, an unknown email and a deleted account alike', async () => {
    const user = await activeUser(api);
    const gone = await activeUser(api);
    expect((await api.delete(`/users/${gone.id}`, { token: gone.token })).status).toBe(204);

    const wrong = await attempt(user.email, 'Wrong-pass-1');
    const unknown = await attempt(uniqueEmail(), 'Wrong-pass-1');
    const deleted = await attempt(gone.email, gone.password);
    const right = await attempt(user.email, user.password);

    expect(right).toMatchObject({ status: 200, verifications: 1 });
    for (const r of [wrong, unknown, deleted]) {
      expect(r.status).toBe(401);
      expect(r.body).toEqual(wrong.body);
      expect(r.verifications).toBe(1);
    }
  });
});
