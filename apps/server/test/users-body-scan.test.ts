import { hashToken } from '@plenum/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { createBodyScanner, scannedClient } from './support/body-scan';
import { activeUser, PASSWORD, type TestUser } from './support/factories';
import type { RecordedExchange } from './support/http';

/**
 * The response-body scan used by every users/admin test file (each ends with `scanner.violations()`):
 * here it is shown to pass on real traffic and to catch each kind of leak when one is planted.
 */
const ADMIN = 'scan-admin@example.org';
let t: TestApp;
let admin: TestUser;
let user: TestUser;
let other: TestUser;
let adminList: RecordedExchange;

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAILS: ADMIN } });
  const { api, scanner } = scannedClient(t.url);
  [admin, user, other] = await Promise.all([
    activeUser(api, { email: ADMIN }),
    activeUser(api),
    activeUser(api),
  ]);
  await api.put(`/users/${user.id}`, { bio: 'hello', phoneNumber: '+1 555 0100' }, { token: user.token });
  await api.get(`/users/${user.id}`, { token: user.token });
  await api.get(`/users/${other.id}/profile`, { token: user.token });
  await api.get(`/users/${user.id}/preferences`, { token: user.token });
  await api.get('/admin/users?limit=200', { token: admin.token });
  adminList = scanner.exchanges.at(-1)!;
  expect(adminList.text).toContain(user.email);
  expect(scanner.violations()).toEqual([]);
});
afterAll(() => t.close());

const exchange = (over: Partial<RecordedExchange>): RecordedExchange => ({
  method: 'GET',
  path: '/planted',
  token: null,
  requestBody: undefined,
  status: 200,
  text: '{}',
  ...over,
});

/** a fresh scanner that knows the three test identities, as a recorded login would teach it */
function scannerKnowingUsers() {
  const s = createBodyScanner();
  s.knowToken(admin.token, { email: admin.email, role: 'admin' });
  s.knowToken(user.token, { email: user.email, role: 'user' });
  s.knowToken(other.token, { email: other.email, role: 'user' });
  return s;
}

describe('the response-body scanner', () => {
  it('flags a password-hash field or an argon2 string', () => {
    const s = scannerKnowingUsers();
    s.record(exchange({ text: '{"id":"x","passwordHash":"abc"}' }));
    s.record(exchange({ text: '{"password_hash":"abc"}' }));
    s.record(exchange({ text: '{"h":"$argon2id$v=19$m=19456,t=2,p=1$abc"}' }));
    expect(s.violations()).toHaveLength(3);
  });

  it('flags a password that any request carried', () => {
    const s = scannerKnowingUsers();
    s.record(
      exchange({
        method: 'POST',
        path: '/auth/login',
        requestBody: { password: 'Another-Secret-77' },
        status: 401,
        text: '{}',
      }),
    );
    s.record(exchange({ text: `{"echo":"${PASSWORD}"}` }));
    s.record(exchange({ text: '{"echo":"Another-Secret-77"}' }));
    expect(s.violations()).toHaveLength(2);
  });

  it('flags the hash of a known session token', () => {
    const s = scannerKnowingUsers();
    s.record(exchange({ token: user.token, text: `{"session":"${hashToken(user.token)}"}` }));
    expect(s.violations()).toEqual([expect.stringContaining('a token hash')]);
  });

  it('flags other people’s emails shown to a non-admin, but not to an admin or to the owner', () => {
    const s = scannerKnowingUsers();
    s.record({ ...adminList, token: user.token }); // the admin list, as if a plain user had received it
    const leaks = s.violations();
    expect(leaks.some((v) => v.includes(other.email))).toBe(true);
    expect(leaks.some((v) => v.includes(admin.email))).toBe(true);
    expect(leaks.some((v) => v.includes(user.email))).toBe(false);

    const fine = scannerKnowingUsers();
    fine.record(adminList);
    fine.record(exchange({ token: user.token, text: JSON.stringify({ email: user.email }) }));
    fine.record(
      exchange({
        method: 'POST',
        requestBody: { email: 'typed@example.org' },
        text: '{"email":"typed@example.org"}',
      }),
    );
    expect(fine.violations()).toEqual([]);
  });

  it('learns who holds a token from a recorded sign-in response', () => {
    const s = createBodyScanner();
    s.record(
      exchange({
        method: 'POST',
        path: '/auth/login',
        requestBody: { email: user.email },
        text: JSON.stringify({ token: 'tok-1', user: { email: user.email, role: 'user' } }),
      }),
    );
    s.record(exchange({ token: 'tok-1', text: JSON.stringify({ email: user.email }) }));
    s.record(exchange({ token: 'tok-1', text: JSON.stringify({ email: other.email }) }));
    expect(s.violations()).toEqual([expect.stringContaining(other.email)]);
  });
});
