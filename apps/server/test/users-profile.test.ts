import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { scannedClient } from './support/body-scan';
import { activeUser, register, type TestUser } from './support/factories';
import type { ApiClient } from './support/http';

const ADMIN = 'profile-admin@example.org';
let t: TestApp;
let api: ApiClient;
let scan: ReturnType<typeof scannedClient>['scanner'];
let owner: TestUser;
let other: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAILS: ADMIN } });
  ({ api, scanner: scan } = scannedClient(t.url));
  [owner, other, admin] = await Promise.all([
    activeUser(api),
    activeUser(api),
    activeUser(api, { email: ADMIN }),
  ]);
});
afterAll(() => t.close());

describe('GET /users/{id}', () => {
  it('gives the full record to the owner and to an admin, 403 to others, 404 when missing', async () => {
    const mine = await api.get(`/users/${owner.id}`, { token: owner.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      id: owner.id,
      email: owner.email,
      status: 'active',
      emailVerified: true,
    });
    expect(mine.body.lastLoginAt).toMatch(/Z$/);
    expect(mine.body.preferences).toEqual({
      theme: 'light',
      language: 'en',
      followSystem: { theme: true, language: true },
      notifications: { email: true, push: false, sms: false },
      privacy: { profileVisibility: 'public', showEmail: false, showPhoneNumber: false },
    });
    expect((await api.get(`/users/${owner.id}`, { token: admin.token })).status).toBe(200);
    const forbidden = await api.get(`/users/${owner.id}`, { token: other.token });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('FORBIDDEN');
    expect(forbidden.text).not.toContain(owner.email);
    const missing = await api.get('/users/00000000-0000-4000-8000-000000000000', { token: admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('NOT_FOUND');
    expect((await api.get('/users/not-a-uuid', { token: owner.token })).status).toBe(400);
  });

  it('lets a pending (unverified) user read and edit their own profile', async () => {
    const reg = await register(api);
    const token = (await api.post('/auth/login', { email: reg.body.email, password: 'Correct-Horse-9' })).body
      .token;
    expect((await api.get(`/users/${reg.body.id}`, { token })).body.status).toBe('pending_verification');
    const put = await api.put(`/users/${reg.body.id}`, { bio: 'not verified yet' }, { token });
    expect(put.status).toBe(200);
  });
});

describe('PUT /users/{id}', () => {
  it('updates the profile fields for the owner and returns the updated user', async () => {
    const res = await api.put(
      `/users/${owner.id}`,
      {
        firstName: ' Augusta ',
        lastName: 'King',
        bio: 'Analyst of engines',
        phoneNumber: '+44 (20) 7946-0958',
        dateOfBirth: '1915-12-10',
        socialLinks: { github: 'https://github.com/ada', site: 'https://ada.example' },
      },
      { token: owner.token },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      firstName: 'Augusta',
      lastName: 'King',
      bio: 'Analyst of engines',
      phoneNumber: '+44 (20) 7946-0958',
      dateOfBirth: '1915-12-10',
      socialLinks: { github: 'https://github.com/ada', site: 'https://ada.example' },
    });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(res.body.createdAt));
    // null clears an optional field; socialLinks replace the whole map
    const cleared = await api.put(
      `/users/${owner.id}`,
      { phoneNumber: null, socialLinks: {} },
      { token: owner.token },
    );
    expect(cleared.body).toMatchObject({ phoneNumber: null, socialLinks: {}, bio: 'Analyst of engines' });
  });

  it('is for the owner only: another user and even an admin get 403', async () => {
    expect((await api.put(`/users/${owner.id}`, { bio: 'x' }, { token: other.token })).status).toBe(403);
    expect((await api.put(`/users/${owner.id}`, { bio: 'x' }, { token: admin.token })).status).toBe(403);
    expect((await api.put(`/users/${owner.id}`, { bio: 'x' })).status).toBe(401);
  });

  it('refuses every field outside the profile fields (mass assignment) with 400 and changes nothing', async () => {
    for (const body of [
      { status: 'active' },
      { role: 'admin' },
      { emailVerified: true },
      { email: 'new@example.org' },
      { avatarUrl: 'https://evil.example/x.png' },
      { passwordHash: 'x' },
      { bio: 'ok', suspendedAt: null },
    ]) {
      const res = await api.put(`/users/${other.id}`, body, { token: other.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('BAD_REQUEST');
    }
    const after = await api.get(`/users/${other.id}`, { token: other.token });
    expect(after.body).toMatchObject({ role: 'user', email: other.email, bio: null, avatarUrl: null });
  });

  it('applies the profile validations with 400 and the offending field named', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ bio: 'x'.repeat(501) }, 'bio'],
      [{ phoneNumber: 'call me' }, 'phoneNumber'],
      [{ phoneNumber: '12+34' }, 'phoneNumber'],
      [{ dateOfBirth: '2999-01-01' }, 'dateOfBirth'],
      [{ dateOfBirth: '1990-02-30' }, 'dateOfBirth'],
      [{ dateOfBirth: 'yesterday' }, 'dateOfBirth'],
      [{ socialLinks: { a: 5 } }, 'socialLinks.a'],
      [{ socialLinks: ['x'] }, 'socialLinks'],
      [
        { socialLinks: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) },
        'socialLinks',
      ],
      [{ firstName: '   ' }, 'firstName'],
      [{ preferences: { theme: 'neon' } }, 'preferences.theme'],
    ];
    for (const [body, path] of cases) {
      const res = await api.put(`/users/${owner.id}`, body, { token: owner.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(
        res.body.issues?.map((i: { path: string }) => i.path),
        JSON.stringify(res.body),
      ).toContain(path);
    }
    expect(
      (await api.put(`/users/${owner.id}`, { bio: 'é'.repeat(500) }, { token: owner.token })).status,
    ).toBe(200);
  });
});

describe('JSON booleans stay booleans', () => {
  it('refuses the string "false" for acceptedTerms and for preference switches (no coercion)', async () => {
    const reg = await register(api, { acceptedTerms: 'false' });
    expect(reg.status).toBe(400);
    expect(reg.body.issues[0].path).toBe('acceptedTerms');
    const prefs = await api.put(
      `/users/${owner.id}/preferences`,
      { notifications: { email: 'false' } },
      { token: owner.token },
    );
    expect(prefs.status).toBe(400);
    expect(
      (await api.get(`/users/${owner.id}/preferences`, { token: owner.token })).body.notifications.email,
    ).toBe(true);
  });
});

describe('GET /users/{id}/profile', () => {
  it('shows the public profile view; the email only to the owner', async () => {
    const anon = await api.get(`/users/${owner.id}/profile`);
    expect(anon.status).toBe(200);
    expect(Object.keys(anon.body).sort()).toEqual(
      [
        'avatarUrl',
        'bio',
        'email',
        'firstName',
        'id',
        'isVerified',
        'joinedAt',
        'lastName',
        'profileVisibility',
        'socialLinks',
      ].sort(),
    );
    expect(anon.body).toMatchObject({
      id: owner.id,
      email: null,
      isVerified: true,
      profileVisibility: 'public',
    });
    expect(anon.body.joinedAt).toMatch(/Z$/);
    expect((await api.get(`/users/${owner.id}/profile`, { token: other.token })).body.email).toBeNull();
    expect((await api.get(`/users/${owner.id}/profile`, { token: admin.token })).body.email).toBeNull();
    expect((await api.get(`/users/${owner.id}/profile`, { token: owner.token })).body.email).toBe(
      owner.email,
    );
  });

  it('hides a private profile from everyone but the owner (400 PROFILE_PRIVATE, docs/users.md)', async () => {
    const u = await activeUser(api);
    const set = await api.put(
      `/users/${u.id}/preferences`,
      { privacy: { profileVisibility: 'private' } },
      { token: u.token },
    );
    expect(set.status).toBe(200);
    for (const token of [undefined, other.token, admin.token]) {
      const res = await api.get(`/users/${u.id}/profile`, { token });
      expect(res.status).toBe(400);
      expect(res.body.reason).toBe('PROFILE_PRIVATE');
    }
    const mine = await api.get(`/users/${u.id}/profile`, { token: u.token });
    expect(mine.status).toBe(200);
    expect(mine.body.profileVisibility).toBe('private');
  });
});

describe('preferences', () => {
  it('deep-merges, validates, and keeps profileVisibility in one place', async () => {
    const u = await activeUser(api);
    const url = `/users/${u.id}/preferences`;
    expect((await api.get(url, { token: u.token })).body.theme).toBe('light');
    const a = await api.put(url, { theme: 'dark', notifications: { push: true } }, { token: u.token });
    expect(a.status).toBe(200);
    const b = await api.put(
      url,
      { notifications: { sms: true }, privacy: { profileVisibility: 'private' } },
      { token: u.token },
    );
    expect(b.body).toEqual({
      theme: 'dark',
      language: 'en',
      followSystem: { theme: false, language: true },
      notifications: { email: true, push: true, sms: true },
      privacy: { profileVisibility: 'private', showEmail: false, showPhoneNumber: false },
    });
    // the user field and the preference are the same truth, both ways
    expect((await api.get(`/users/${u.id}`, { token: u.token })).body.profileVisibility).toBe('private');
    const viaPut = await api.put(
      `/users/${u.id}`,
      { preferences: { privacy: { profileVisibility: 'public' }, language: 'PT-br' } },
      { token: u.token },
    );
    expect(viaPut.body.profileVisibility).toBe('public');
    expect(viaPut.body.preferences).toMatchObject({
      theme: 'dark',
      language: 'pt-BR',
      privacy: { profileVisibility: 'public' },
    });
    expect((await api.get(`/users/${u.id}/profile`)).status).toBe(200);

    for (const bad of [
      { theme: 'neon' },
      { language: 'no such tag!' },
      { notifications: { email: 'yes' } },
      { extra: 1 },
      { privacy: { showEmail: 1 } },
      { followSystem: { theme: 'true' } },
      { followSystem: { colour: true } },
    ]) {
      expect((await api.put(url, bad, { token: u.token })).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await api.get(url, { token: other.token })).status).toBe(403);
    expect((await api.get(url, { token: admin.token })).status).toBe(200);
    expect((await api.put(url, { theme: 'light' }, { token: admin.token })).status).toBe(403);
  });

  it('theme and language follow the device until the owner chooses, and can follow it again', async () => {
    const u = await activeUser(api);
    const url = `/users/${u.id}/preferences`;
    // other preferences saved: still no choice of theme or language
    await api.put(url, { notifications: { push: true } }, { token: u.token });
    expect((await api.get(url, { token: u.token })).body).toMatchObject({
      theme: 'light',
      language: 'en',
      followSystem: { theme: true, language: true },
    });
    const chosen = await api.put(url, { theme: 'light', language: 'de' }, { token: u.token });
    expect(chosen.body).toMatchObject({
      theme: 'light',
      language: 'de',
      followSystem: { theme: false, language: false },
    });
    const back = await api.put(url, { followSystem: { language: true } }, { token: u.token });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({
      theme: 'light',
      language: 'en',
      followSystem: { theme: false, language: true },
    });
    // the full record carries the same
    expect((await api.get(`/users/${u.id}`, { token: u.token })).body.preferences.followSystem).toEqual({
      theme: false,
      language: true,
    });
  });

  it('loses no update when two patches of one user race', async () => {
    const u = await activeUser(api);
    const url = `/users/${u.id}/preferences`;
    await Promise.all([
      api.put(url, { notifications: { push: true } }, { token: u.token }),
      api.put(url, { theme: 'dark' }, { token: u.token }),
      api.put(url, { privacy: { showPhoneNumber: true } }, { token: u.token }),
    ]);
    expect((await api.get(url, { token: u.token })).body).toMatchObject({
      theme: 'dark',
      notifications: { push: true },
      privacy: { showPhoneNumber: true },
    });
  });
});

describe('feature switches', () => {
  let t2: TestApp;
  let api2: ApiClient;
  beforeAll(async () => {
    t2 = await startTestApp({
      env: {
        ALLOW_PUBLIC_PROFILES: 'false',
        ENABLE_BIO: 'false',
        ENABLE_SOCIAL_LINKS: 'false',
        MAX_BIO_LENGTH: '20',
      },
    });
    ({ api: api2 } = scannedClient(t2.url));
  });
  afterAll(() => t2.close());

  it('ALLOW_PUBLIC_PROFILES=false makes every profile private to others; ENABLE_BIO / ENABLE_SOCIAL_LINKS refuse those fields', async () => {
    const [a, b] = await Promise.all([activeUser(api2), activeUser(api2)]);
    expect((await api2.get(`/users/${a.id}/profile`, { token: b.token })).status).toBe(400);
    expect((await api2.get(`/users/${a.id}/profile`)).body.reason).toBe('PROFILE_PRIVATE');
    expect((await api2.get(`/users/${a.id}/profile`, { token: a.token })).status).toBe(200);
    const bio = await api2.put(`/users/${a.id}`, { bio: 'hello' }, { token: a.token });
    expect(bio.status).toBe(400);
    expect(bio.body.issues[0]).toMatchObject({ path: 'bio', code: 'FEATURE_DISABLED' });
    const links = await api2.put(`/users/${a.id}`, { socialLinks: { x: 'y' } }, { token: a.token });
    expect(links.body.issues[0]).toMatchObject({ path: 'socialLinks', code: 'FEATURE_DISABLED' });
    expect(
      (await api2.put(`/users/${a.id}`, { firstName: 'Still', bio: null }, { token: a.token })).status,
    ).toBe(200);
  });
});

it('no response of this file leaked a secret or another user’s email', () => {
  expect(scan.exchanges.length).toBeGreaterThan(50);
  expect(scan.violations()).toEqual([]);
});
