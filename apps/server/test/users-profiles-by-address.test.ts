import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, linkWallet, memberUser, newWallet } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

/**
 * GET /profiles/by-address (docs/users.md, "Names for addresses"): names of public profiles behind wallet
 * addresses, nothing for private, suspended, deleted or unlinked ones, nothing at all while
 * ALLOW_PUBLIC_PROFILES is false; addresses validated, matched ignoring case, at most 100.
 */
const ADMIN = 'names-admin@example.org';
let t: TestApp;
let api: ApiClient;

beforeAll(async () => {
  t = await startTestApp({ env: { ADMIN_EMAILS: ADMIN } });
  api = apiClient(t.url);
});
afterAll(() => t.close());

const lookup = async (addresses: string[], client = api, token?: string) => {
  const res = await client.get(`/profiles/by-address?addresses=${encodeURIComponent(addresses.join(','))}`, {
    token,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items as {
    address: string;
    userId: string;
    displayName: string;
    avatarUrl: string | null;
  }[];
};

describe('GET /profiles/by-address', () => {
  it('names the public profiles behind wallets, in any case, and nothing private or unknown', async () => {
    const pub = await memberUser(api, { firstName: 'Grace', lastName: 'Hopper' });
    const second = await linkWallet(api, pub);
    const priv = await memberUser(api, { firstName: 'Secret', lastName: 'Agent' });
    const hide = await api.put(
      `/users/${priv.id}/preferences`,
      { privacy: { profileVisibility: 'private' } },
      { token: priv.token },
    );
    expect(hide.status).toBe(200);
    const stranger = newWallet();
    const items = await lookup([
      pub.wallet.address.toLowerCase(),
      priv.wallet.address,
      stranger.address,
      second.address.toUpperCase().replace('0X', '0x'),
      pub.wallet.address, // the same address twice: once in the answer
    ]);
    expect(items).toEqual([
      { address: pub.wallet.address, userId: pub.id, displayName: 'Grace Hopper', avatarUrl: null },
      { address: second.address, userId: pub.id, displayName: 'Grace Hopper', avatarUrl: null },
    ]);
    const body = JSON.stringify(items);
    expect(body).not.toContain(pub.email);
    expect(body).not.toContain('Secret');
    // the owner does not see their own private profile here either: the answer is the same for everyone
    expect(await lookup([priv.wallet.address], api, priv.token)).toEqual([]);
  });

  it('leaves out suspended and deleted accounts', async () => {
    const admin = await activeUser(api, { email: ADMIN });
    const suspended = await memberUser(api, { firstName: 'Sus', lastName: 'Pended' });
    const deleted = await memberUser(api, { firstName: 'Del', lastName: 'Eted' });
    const shown = await lookup([suspended.wallet.address, deleted.wallet.address]);
    expect(shown.map((p) => p.displayName)).toEqual(['Sus Pended', 'Del Eted']);
    const s = await api.post(
      `/admin/users/${suspended.id}/suspend`,
      { reason: 'spam' },
      { token: admin.token },
    );
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect((await api.delete(`/users/${deleted.id}`, { token: deleted.token })).status).toBe(204);
    expect(await lookup([suspended.wallet.address, deleted.wallet.address])).toEqual([]);
  });

  it('a malformed address, an empty entry, more than 100 addresses or none is a 400 on addresses', async () => {
    const good = newWallet().address;
    const cases: [string, string][] = [
      ['not-an-address', 'malformed'],
      [`${good},0x123`, 'short'],
      [`${good},`, 'empty entry'],
      [Array.from({ length: 101 }, () => newWallet().address).join(','), '101 addresses'],
    ];
    for (const [addresses, what] of cases) {
      const res = await api.get(`/profiles/by-address?addresses=${encodeURIComponent(addresses)}`);
      expect(res.status, what).toBe(400);
      expect(res.body.code, what).toBe('BAD_REQUEST');
      expect(
        res.body.issues.map((i: { path: string }) => i.path),
        what,
      ).toContain('addresses');
    }
    expect((await api.get('/profiles/by-address')).status).toBe(400);
    expect((await api.get(`/profiles/by-address?addresses=${good}&extra=1`)).status).toBe(400);
    // exactly 100 is fine
    const hundred = Array.from({ length: 100 }, () => newWallet().address);
    expect(await lookup(hundred)).toEqual([]);
  });

  it('a mixed-case address with a wrong EIP-55 checksum is a 400', async () => {
    // 0x52908400098527886E0F7030069857D2E4169EE7 is EIP-55's own example; one letter flipped breaks it
    const res = await api.get('/profiles/by-address?addresses=0x52908400098527886e0F7030069857D2E4169EE7');
    expect(res.status).toBe(400);
    expect(res.body.issues[0]).toMatchObject({ path: 'addresses', code: 'invalid_checksum' });
  });
});

describe('ALLOW_PUBLIC_PROFILES=false', () => {
  it('names nobody, while bad input is still a 400', async () => {
    const closed = await startTestApp({ env: { ALLOW_PUBLIC_PROFILES: 'false' } });
    try {
      const c = apiClient(closed.url);
      const user = await memberUser(c, { firstName: 'Open', lastName: 'Book' });
      expect(await lookup([user.wallet.address], c)).toEqual([]);
      expect((await c.get('/profiles/by-address?addresses=0x1')).status).toBe(400);
    } finally {
      await closed.close();
    }
  });
});
