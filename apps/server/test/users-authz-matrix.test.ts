import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { scannedClient } from './support/body-scan';
import { activeUser, type TestUser } from './support/factories';
import type { ApiClient } from './support/http';
import { tinyPng } from './support/images';

/**
 * Every users and admin path × every kind of caller, from this one table. Each cell is one test, on a
 * fresh subject account (with an avatar), so that cells cannot influence each other:
 * - anonymous: no credential, acting on the subject;
 * - owner: the subject itself; another: a different active user; admin: an administrator;
 * - suspended / deleted: the subject after an admin suspended it / after it deleted itself, presenting
 *   its old token on its own account (the token is dead, so public paths see an anonymous caller).
 */
const CALLERS = ['anonymous', 'owner', 'another', 'admin', 'suspended', 'deleted'] as const;
type Caller = (typeof CALLERS)[number];

type Status = 200 | 202 | 204 | 401 | 403 | 404;
/** the expected status for each caller, in the order of CALLERS */
type Cells = readonly [
  anonymous: Status,
  owner: Status,
  another: Status,
  admin: Status,
  suspended: Status,
  deleted: Status,
];
type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';
/** method and OpenAPI path, `{id}` standing for the subject */
type Operation = `${Method} /${string}`;
interface Request {
  body?: unknown;
  /** an upload: multipart with a PNG */
  avatar?: true;
  /** runs as the admin on the subject before the request */
  before?: 'suspendSubject';
}

// biome-ignore format: the matrix is laid out as a table, one column per caller
const MATRIX: readonly (readonly [Operation, Cells, Request?])[] = [
  //  operation                               anonymous owner another admin suspended deleted
  ['GET /users/{id}',                          [401,     200,  403,    200,  401,      401]],
  ['PUT /users/{id}',                          [401,     200,  403,    403,  401,      401], { body: { bio: 'matrix' } }],
  ['DELETE /users/{id}',                       [401,     204,  403,    204,  401,      401]],
  ['GET /users/{id}/profile',                  [200,     200,  200,    200,  200,      404]],
  ['GET /users/{id}/preferences',              [401,     200,  403,    200,  401,      401]],
  ['PUT /users/{id}/preferences',              [401,     200,  403,    403,  401,      401], { body: { theme: 'dark' } }],
  ['PUT /users/{id}/avatar',                   [401,     200,  403,    403,  401,      401], { avatar: true }],
  ['GET /users/{id}/avatar',                   [200,     200,  200,    200,  200,      404]],
  ['GET /admin/users',                         [401,     403,  403,    200,  401,      401]],
  ['POST /admin/users/{id}/suspend',           [401,     403,  403,    200,  401,      401], { body: { reason: 'matrix' } }],
  // the subject is suspended first, so its own token no longer works (owner → 401)
  ['POST /admin/users/{id}/reactivate',        [401,     401,  403,    200,  401,      401], { before: 'suspendSubject' }],
  ['GET /admin/stats',                         [401,     403,  403,    200,  401,      401]],
  ['GET /admin/stats/registrations',           [401,     403,  403,    200,  401,      401]],
  ['GET /admin/audit-log',                     [401,     403,  403,    200,  401,      401]],
  ['GET /admin/audit-log.csv',                 [401,     403,  403,    200,  401,      401]],
  ['GET /admin/users/{id}',                    [401,     403,  403,    200,  401,      401]],
  ['POST /admin/users/{id}/sessions/revoke',   [401,     403,  403,    200,  401,      401]],
  ['POST /admin/users/{id}/password-reset',    [401,     403,  403,    202,  401,      401]],
  ['PUT /admin/users/{id}/storage-quota',      [401,     403,  403,    200,  401,      401], { body: { limitBytes: 0 } }],
  ['POST /admin/storage/gc',                   [401,     403,  403,    202,  401,      401]],
];

/** one case per cell of the table */
const CASES = MATRIX.flatMap(([operation, cells, request = {}]) =>
  CALLERS.map((caller, i) => ({ operation, caller, status: cells[i], request })),
);

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

async function suspend(subject: TestUser) {
  const res = await api.post(
    `/admin/users/${subject.id}/suspend`,
    { reason: 'matrix setup' },
    { token: admin.token },
  );
  expect(res.status).toBe(200);
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
    case 'suspended':
      await suspend(subject);
      return { subject, token: subject.token };
    case 'deleted':
      expect((await api.delete(`/users/${subject.id}`, { token: subject.token })).status).toBe(204);
      return { subject, token: subject.token };
  }
}

/** the status the caller gets for the operation */
async function run(operation: Operation, request: Request, caller: Caller): Promise<number> {
  const { subject, token } = await prepare(caller);
  if (request.before === 'suspendSubject' && caller !== 'suspended' && caller !== 'deleted')
    await suspend(subject);
  const [method, template] = operation.split(' ') as [Method, string];
  const path = template.replace('{id}', subject.id);
  if (request.avatar) return (await api.request(method, path, undefined, { raw: pngForm(), token })).status;
  return (await api.request(method, path, request.body, { token })).status;
}

describe('authorization matrix', () => {
  it.concurrent.each(CASES)(
    '$operation as $caller → $status',
    async ({ operation, caller, status, request }) => {
      expect(await run(operation, request, caller)).toBe(status);
    },
  );

  it('covers every users and admin path of the OpenAPI document, once', async () => {
    const doc = (await api.get('/api/docs-json')).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .filter(([p]) => /^\/(users\/\{id\}|admin\/(users|stats|audit-log|storage))/.test(p))
      .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    const covered = MATRIX.map(([operation]) => operation);
    expect(documented.sort()).toEqual(covered.sort());
  });
});

it('no response of this file leaked a secret or another user’s email', () => {
  expect(scan.exchanges.length).toBeGreaterThan(200);
  expect(scan.violations()).toEqual([]);
});
