import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, memberUser, type TestUser } from './support/factories';
import { createDao, createProposal, type Member } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * A NUL character (U+0000) in any text is a 400 with a field issue, on every service, over REST and
 * tRPC (docs/api.md, "Validation"); PostgreSQL cannot store it, so without the check each of these was
 * a 500.
 */
let t: TestApp;
let api: ApiClient;
let member: Member;
let admin: TestUser;
let daoId: string;

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAILS: 'nul-admin@example.org' } });
  api = apiClient(t.url);
  member = await memberUser(api);
  admin = await activeUser(api, { email: 'nul-admin@example.org' });
  daoId = (await createDao(api, member)).daoId;
});
afterAll(() => t.close());

const NUL = 'a\u0000b';

function expectNulIssue(res: { status: number; body: any; text: string }, path: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.body.code).toBe('BAD_REQUEST');
  expect(res.body.reason).toBe('VALIDATION_FAILED');
  expect(res.body.issues).toContainEqual(expect.objectContaining({ path, code: 'nul_character' }));
  expect(res.text).not.toMatch(/stack|Failed query/);
}

describe('NUL in text is a 400 field issue everywhere', () => {
  const cases: [string, () => Promise<{ status: number; body: any; text: string }>, string][] = [
    ['login email', () => api.post('/auth/login', { email: `x${NUL}@example.org`, password: 'x' }), 'email'],
    [
      'resend-verification email',
      () => api.post('/users/resend-verification', { email: `x${NUL}@e.org` }),
      'email',
    ],
    [
      'DAO name',
      () =>
        api.post(
          '/daos',
          {
            name: NUL,
            ownerAddress: member.wallet.address,
            votingRules: { threshold: 50, minVotingPeriod: 0, tokenWeighted: false },
          },
          { token: member.token },
        ),
      'name',
    ],
    [
      'DAO description',
      () =>
        api.post(
          '/daos',
          {
            name: 'ok',
            description: NUL,
            ownerAddress: member.wallet.address,
            votingRules: { threshold: 50, minVotingPeriod: 0, tokenWeighted: false },
          },
          { token: member.token },
        ),
      'description',
    ],
    [
      'proposal title',
      () =>
        api.post(
          '/proposals',
          { daoId, title: NUL, creatorAddress: member.wallet.address, votingDurationHours: 1 },
          { token: member.token },
        ),
      'title',
    ],
    [
      'proposal description',
      () =>
        api.post(
          '/proposals',
          {
            daoId,
            title: 'ok',
            description: NUL,
            creatorAddress: member.wallet.address,
            votingDurationHours: 1,
          },
          { token: member.token },
        ),
      'description',
    ],
    [
      'proposal data, nested',
      () =>
        api.post(
          '/proposals',
          {
            daoId,
            title: 'ok',
            creatorAddress: member.wallet.address,
            votingDurationHours: 1,
            proposalData: { a: [{ b: NUL }] },
          },
          { token: member.token },
        ),
      'proposalData.a.0.b',
    ],
    [
      'profile firstName',
      () => api.put(`/users/${member.id}`, { firstName: NUL }, { token: member.token }),
      'firstName',
    ],
    [
      'profile lastName',
      () => api.put(`/users/${member.id}`, { lastName: NUL }, { token: member.token }),
      'lastName',
    ],
    ['profile bio', () => api.put(`/users/${member.id}`, { bio: NUL }, { token: member.token }), 'bio'],
    [
      'social link key',
      () =>
        api.put(
          `/users/${member.id}`,
          { socialLinks: { [`x${NUL}`]: 'https://example.org' } },
          { token: member.token },
        ),
      `socialLinks.x${NUL}`,
    ],
    ['access token name', () => api.post('/auth/tokens', { name: NUL }, { token: member.token }), 'name'],
    [
      'admin search',
      () => api.get(`/admin/users?search=${encodeURIComponent(NUL)}`, { token: admin.token }),
      'search',
    ],
    [
      'a proposal vote comment over tRPC',
      () =>
        trpcMutation(
          'governance.votes.cast',
          { daoId, proposalId: daoId, voterAddress: member.wallet.address, choice: 'For', comment: NUL },
          member.token,
        ),
      'comment',
    ],
  ];
  for (const [name, send, path] of cases) it(name, async () => expectNulIssue(await send(), path));

  it('a path parameter', async () => {
    const res = await api.get(`/daos/${encodeURIComponent(NUL)}`);
    expect(res.status, res.text).toBe(400);
    expect(res.body.issues).toContainEqual(expect.objectContaining({ path: 'daoId' }));
  });

  it('the Pinning Service API: pin name and the name filter (its own error body)', async () => {
    const add = await api.post('/pins', { cid: 'bafkqaaa', name: NUL }, { token: member.token });
    expect(add.status, add.text).toBe(400);
    expect(add.body.error.details).toMatch(/NUL/);
    const list = await api.get(`/pins?name=${encodeURIComponent(NUL)}`, { token: member.token });
    expect(list.status, list.text).toBe(400);
  });

  it('an upload file name (RFC 5987 encoded; a raw NUL in a part header is a malformed body)', async () => {
    const upload = async (disposition: string) => {
      const body = `--b0undary\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\n\r\nhello\r\n--b0undary--\r\n`;
      const res = await fetch(`${t.url}/ipfs/upload`, {
        method: 'POST',
        body,
        headers: {
          authorization: `Bearer ${member.token}`,
          'content-type': 'multipart/form-data; boundary=b0undary',
        },
      });
      return { status: res.status, body: await res.json() };
    };
    const encoded = await upload("filename*=utf-8''x%00.txt");
    expect(encoded.status).toBe(400);
    expect(encoded.body).toMatchObject({
      reason: 'VALIDATION_FAILED',
      issues: [expect.objectContaining({ path: 'filename', code: 'nul_character' })],
    });
    const raw = await upload('filename="x\u0000.txt"');
    expect(raw.status).toBe(400);
    expect(raw.body.reason).toBe('MALFORMED_MULTIPART');
  });

  it('text without NUL still works (the check is not over-eager)', async () => {
    const ok = await createProposal(api, member, daoId, { title: 'Tab\there, emoji 🦄, \u0001 control' });
    expect(ok.title).toBe('Tab\there, emoji 🦄, \u0001 control');
  });
});

async function trpcMutation(path: string, input: unknown, token: string) {
  const res = await fetch(`${t.url}/trpc/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(input),
  });
  const text = await res.text();
  const body = JSON.parse(text);
  // tRPC's envelope: the same reason and field issues, in error.data
  return {
    status: res.status,
    text,
    body: {
      code: body.error?.data?.code,
      reason: body.error?.data?.reason,
      issues: body.error?.data?.issues,
    },
  };
}
