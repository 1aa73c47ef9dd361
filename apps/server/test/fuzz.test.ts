import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, linkWallet, memberUser, type TestUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

/**
 * Every REST path of the OpenAPI document, fed bad input as anonymous, as a member and as an admin:
 * the answer must be a 4xx in the one error body, never a 5xx (docs/api.md, "Decisions"; the reliability
 * targets in docs/operations.md, "Benchmarks"), and
 * its status must be one the document lists for that operation (what a schema-checking client expects).
 */
let t: TestApp;
let api: ApiClient;
let member: TestUser;
let admin: TestUser;
let memberCookie: string;
let doc: {
  paths: Record<
    string,
    Record<
      string,
      { requestBody?: { content?: Record<string, unknown> }; responses?: Record<string, unknown> }
    >
  >;
};

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAILS: 'fuzz-admin@example.org' } });
  api = apiClient(t.url);
  member = await memberUser(api);
  admin = await activeUser(api, { email: 'fuzz-admin@example.org' });
  await linkWallet(api, admin);
  const signIn = await api.post('/auth/login', { email: member.email, password: member.password });
  memberCookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  const res = await api.get('/api/docs-json');
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  doc = res.body;
});
afterAll(() => t.close());

const BAD_SEGMENTS = [
  '0',
  '-1',
  'not-a-uuid',
  '%00',
  "'; drop table users; --",
  'x'.repeat(600),
  '0xZZ',
  '🦄',
  '00000000-0000-0000-0000-000000000000',
  '-'.repeat(36), // looks like a UUID to a loose pattern, fails a uuid column
  'bafy',
];
const BAD_BODIES: unknown[] = [
  {},
  { unexpected: true },
  {
    name: 42,
    title: [],
    email: {},
    password: null,
    choice: 1,
    memberAddress: 'nope',
    tokenBalance: -5,
    votingRules: 'x',
  },
  { name: 'x'.repeat(100_000) },
  { page: -1, limit: 10_000 },
  // NUL characters (PostgreSQL cannot store them): a 400 field issue, never a 500
  {
    name: 'a\u0000b',
    title: '\u0000',
    description: 'x\u0000',
    email: 'x\u0000@example.org',
    bio: '\u0000',
    proposalData: { k: '\u0000' },
  },
];
const BAD_QUERIES = [
  '?page=0',
  '?page=abc&limit=-3',
  '?limit=100000',
  '?status=bogus&role=1',
  '?lastEventId=x',
  '?before=yesterday&after=1',
  '?name=a%00b&search=%00&status=%00',
];

/** multipart bodies that stop before their closing boundary or carry the file under another name */
const B = 'fuzzB0undary';
const part = (field: string, closed: boolean) =>
  `--${B}\r\nContent-Disposition: form-data; name="${field}"; filename="f.png"\r\nContent-Type: image/png\r\n\r\n` +
  `\x89PNG\r\n\x1a\n${'x'.repeat(200)}${closed ? `\r\n--${B}--\r\n` : ''}`;
const BAD_MULTIPART: [string, string][] = [
  ['truncated file', part('file', false)],
  ['truncated avatar', part('avatar', false)],
  ['mislabelled field', part('upload', true)],
  ['mislabelled and truncated', part('picture', false)],
  ['cut inside the part headers', `--${B}\r\nContent-Disposition: form-data; name="fi`],
];

/** a sibling origin of the web app (same site, other port): cookie-authenticated writes from it are refused */
const SIBLING_ORIGIN = 'http://localhost:3001';

function concretePaths(template: string): string[] {
  if (!template.includes('{')) return [template];
  return BAD_SEGMENTS.map((seg) => template.replace(/\{[^}]+\}/g, encodeURIComponent(seg)));
}

describe('fuzzing every REST path from the OpenAPI document', () => {
  it('never answers 5xx to bad input, whoever asks', async () => {
    const failures: string[] = [];
    const callers: [string, string | undefined, Record<string, string>][] = [
      ['anonymous', undefined, {}],
      ['member', member.token, {}],
      ['admin', admin.token, {}],
      ['member by cookie from a sibling origin', undefined, { cookie: memberCookie, origin: SIBLING_ORIGIN }],
    ];
    const paths = Object.entries(doc.paths).filter(([p]) => !p.startsWith('/api/docs'));
    expect(paths.length).toBeGreaterThan(5);
    for (const [template, ops] of paths) {
      for (const method of Object.keys(ops)) {
        const m = method.toUpperCase();
        if (m === 'HEAD' || m === 'OPTIONS') continue;
        const multipart = Boolean(ops[method]?.requestBody?.content?.['multipart/form-data']);
        for (const [who, token, headers] of callers) {
          for (const path of concretePaths(template)) {
            const attempts: Promise<{ status: number; text: string; label: string }>[] = [];
            if (m === 'GET' || m === 'DELETE') {
              for (const q of ['', ...BAD_QUERIES]) {
                attempts.push(
                  api
                    .request(m, path + q, undefined, { token, headers })
                    .then((r) => ({ ...r, label: `${m} ${path}${q}` })),
                );
              }
            } else if (multipart) {
              attempts.push(
                api
                  .request(m, path, undefined, {
                    token,
                    raw: 'not multipart',
                    headers: { ...headers, 'content-type': 'multipart/form-data; boundary=xyz' },
                  })
                  .then((r) => ({ ...r, label: `${m} ${path} (broken multipart)` })),
                api
                  .request(m, path, { file: 'x' }, { token, headers })
                  .then((r) => ({ ...r, label: `${m} ${path} (json to multipart)` })),
                ...BAD_MULTIPART.map(([label, raw]) =>
                  api
                    .request(m, path, undefined, {
                      token,
                      raw: Buffer.from(raw, 'latin1'),
                      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${B}` },
                    })
                    .then((r) => ({ ...r, label: `${m} ${path} (${label})` })),
                ),
              );
            } else {
              for (const body of BAD_BODIES) {
                attempts.push(
                  api
                    .request(m, path, body, { token, headers })
                    .then((r) => ({ ...r, label: `${m} ${path} ${JSON.stringify(body).slice(0, 60)}` })),
                );
              }
              attempts.push(
                api
                  .request(m, path, undefined, {
                    token,
                    raw: '{"broken": ',
                    headers: { ...headers, 'content-type': 'application/json' },
                  })
                  .then((r) => ({ ...r, label: `${m} ${path} (malformed JSON)` })),
              );
            }
            const documented = ops[method]?.responses ?? {};
            for (const r of await Promise.all(attempts)) {
              if (!(String(r.status) in documented) && !('default' in documented))
                failures.push(`${who}: ${r.label} → ${r.status}, not in the document's responses`);
              if (headers.origin && m !== 'GET' && r.status !== 403)
                failures.push(
                  `${who}: ${r.label} → ${r.status}, a cross-origin cookie write must be 403 CSRF`,
                );
              if (r.status >= 500) failures.push(`${who}: ${r.label} → ${r.status} ${r.text.slice(0, 200)}`);
              else if (r.status >= 400 && r.text.includes('"stack"'))
                failures.push(`${who}: ${r.label} → stack trace in body`);
            }
          }
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  }, 600_000);
});
