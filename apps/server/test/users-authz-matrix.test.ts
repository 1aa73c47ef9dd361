import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { scannedClient } from './support/body-scan';
import { activeUser, type TestUser } from './support/factories';
import type { ApiClient } from './support/http';
import { tinyPng } from './support/images';

/**
 * Every users and admin path × every kind of caller, from this one table. Each cell gets a fresh
 * subject account (with an avatar) so that cells cannot influence each other:
 * - anonymous: no credential, acting on the subject;
 * - owner: the subject itself; another: a different active user; admin: an administrator;
 * - suspended / deleted: the subject after an admin suspended it / after it deleted itself, presenting
 *   its old token on its own account (the token is dead, so public paths see an anonymous caller).
 */
const CALLERS = ['anonymous', 'owner', 'another', 'admin', 'suspended', 'deleted'] as const;
type Caller = (typeof CALLERS)[number];

interface Row {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
  /** for an upload: multipart with a PNG */
  avatar?: true;
  /** runs as the admin on the subject before the request */
  before?: 'suspendSubject';
  expect: Record<Caller, number>;
}

const MATRIX: Row[] = [
  {
    method: 'GET',
    path: '/users/{id}',
    expect: { anonymous: 401, owner: 200, another: 403, admin: 200, suspended: 401, deleted: 401 },
  },
  {
    method: 'PUT',
    path: '/users/{id}',
    body: { bio: 'matrix' },
    expect: { anonymous: 401, owner: 200, another: 403, admin: 403, suspended: 401, deleted: 401 },
  },
  {
    method: 'DELETE',
    path: '/users/{id}',
    expect: { anonymous: 401, owner: 204, another: 403, admin: 204, suspended: 401, deleted: 401 },
  },
  {
    method: 'GET',
    path: '/users/{id}/profile',
    expect: { anonymous: 200, owner: 200, another: 200, admin: 200, suspended: 200, deleted: 404 },
  },
  {
    method: 'GET',
    path: '/users/{id}/preferences',
    expect: { anonymous: 401, owner: 200, another: 403, admin: 200, suspended: 401, deleted: 401 },
  },
  {
    method: 'PUT',
    path: '/users/{id}/preferences',
    body: { theme: 'dark' },
    expect: { anonymous: 401, owner: 200, another: 403, admin: 403, suspended: 401, deleted: 401 },
  },
  {
    method: 'PUT',
    path: '/users/{id}/avatar',
    avatar: true,
    expect: { anonymous: 401, owner: 200, another: 403, admin: 403, suspended: 401, deleted: 401 },
  },
  {
    method: 'GET',
    path: '/users/{id}/avatar',
    expect: { anonymous: 200, owner: 200, another: 200, admin: 200, suspended: 200, deleted: 404 },
  },
  {
    method: 'GET',
    path: '/admin/users',
    expect: { anonymous: 401, owner: 403, another: 403, admin: 200, suspended: 401, deleted: 401 },
  },
  {
    method: 'POST',
    path: '/admin/users/{id}/suspend',
    body: { reason: 'matrix' },
    expect: { anonymous: 401, owner: 403, another: 403, admin: 200, suspended: 401, deleted: 401 },
  },
  // the subject is suspended first, so its own token no longer works (owner → 401)
  {
    method: 'POST',
    path: '/admin/users/{id}/reactivate',
    before: 'suspendSubject',
    expect: { anonymous: 401, owner: 401, another: 403, admin: 200, suspended: 401, deleted: 401 },
  },
  {
    method: 'GET',
    path: '/admin/stats',
    expect: { anonymous: 401, owner: 403, another: 403, admin: 200, suspended: 401, deleted: 401 },
  },
  {
    method: 'GET',
    path: '/admin/stats/registrations',
    expect: { anonymous: 401, owner: 403, another: 403, admin: 200, suspended: 401, deleted: 401 },
  },
  {
    method: 'GET',
    path: '/admin/audit-log',
    expect: { anonymous: 401, owner: 403, another: 403, admin: 200, suspended: 401, deleted: 401 },
  },
];

const ADMIN = 'matrix-admin@example.org';
let t: TestApp;
let api: ApiClient;
let scan: ReturnType<typeof scannedClient>['scanner'];
let admin: TestUser;
let another: TestUser;

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAILS: ADMIN } });
  ({ api, scanner: scan } = scannedClient(t.url));
  [admin, another] = await Promise.all([activeUser(api, { email: ADMIN }), activeUser(api)]);
});
afterAll(() => t.close());

function pngForm() {
  const form = new FormData();
  form.append('avatar', new Blob([new Uint8Array(tinyPng())], { type: 'image/png' }), 'me.png');
  return form;
}

async function subjectWithAvatar(): Promise<TestUser> {
  const s = await activeUser(api);
  const res = await api.request('PUT', `/users/${s.id}/avatar`, undefined, {
    raw: pngForm(),
    token: s.token,
  });
  expect(res.status).toBe(200);
  return s;
}

/** the subject prepared for the caller kind, and the token that caller presents */
async function prepare(caller: Caller): Promise<{ subject: TestUser; token: string | undefined }> {
  const subject = await subjectWithAvatar();
  switch (caller) {
    case 'anonymous':
      return { subject, token: undefined };
    case 'owner':
      return { subject, token: subject.token };
    case 'another':
      return { subject, token: another.token };
    case 'admin':
      return { subject, token: admin.token };
    case 'suspended': {
      const res = await api.post(
        `/admin/users/${subject.id}/suspend`,
        { reason: 'matrix setup' },
        { token: admin.token },
      );
      expect(res.status).toBe(200);
      return { subject, token: subject.token };
    }
    case 'deleted':
      expect((await api.delete(`/users/${subject.id}`, { token: subject.token })).status).toBe(204);
      return { subject, token: subject.token };
  }
}

async function run(row: Row, caller: Caller): Promise<number> {
  const { subject, token } = await prepare(caller);
  if (row.before === 'suspendSubject' && caller !== 'suspended' && caller !== 'deleted') {
    const res = await api.post(
      `/admin/users/${subject.id}/suspend`,
      { reason: 'matrix setup' },
      { token: admin.token },
    );
    expect(res.status).toBe(200);
  }
  const path = row.path.replace('{id}', subject.id);
  if (row.avatar) return (await api.request(row.method, path, undefined, { raw: pngForm(), token })).status;
  return (await api.request(row.method, path, row.body, { token })).status;
}

describe('authorization matrix', () => {
  for (const row of MATRIX) {
    it(`${row.method} ${row.path}`, async () => {
      const got = Object.fromEntries(
        await Promise.all(CALLERS.map(async (caller) => [caller, await run(row, caller)] as const)),
      );
      expect(got).toEqual(row.expect);
    });
  }

  it('covers every users and admin path of the OpenAPI document', async () => {
    const doc = (await api.get('/api/docs-json')).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .filter(([p]) => /^\/(users\/\{id\}|admin\/(users|stats|audit-log))/.test(p))
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    const covered = MATRIX.map((r) => `${r.method} ${r.path}`);
    expect(documented.sort()).toEqual(covered.sort());
  });
});

it('no response of this file leaked a secret or another user’s email', () => {
  expect(scan.exchanges.length).toBeGreaterThan(200);
  expect(scan.violations()).toEqual([]);
});
