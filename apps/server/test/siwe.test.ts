import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, linkWallet, newWallet, siweMessage } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  api = apiClient(t.url);
});
afterAll(() => t.close());

describe('Sign-In with Ethereum', () => {
  it('issues EIP-4361 nonces (≥ 8 alphanumerics, each different)', async () => {
    const a = (await api.get('/auth/nonce')).body.nonce;
    const b = (await api.get('/auth/nonce')).body.nonce;
    expect(a).toMatch(/^[A-Za-z0-9]{8,}$/);
    expect(a).not.toBe(b);
  });

  it('links a wallet (EIP-55 stored) and then signs in with it', async () => {
    const user = await activeUser(api);
    const wallet = newWallet();
    const signed = await siweMessage(api, wallet);
    const link = await api.post('/auth/wallets', signed, { token: user.token });
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({ address: wallet.address, isPrimary: true });

    const res = await api.post('/auth/siwe', await siweMessage(api, wallet));
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    expect((await api.get('/auth/me', { token: res.body.token })).body.wallets[0].address).toBe(
      wallet.address,
    );
  });

  it('refuses a replayed message (the nonce is single use)', async () => {
    const user = await activeUser(api);
    const wallet = await linkWallet(api, user);
    const signed = await siweMessage(api, wallet);
    expect((await api.post('/auth/siwe', signed)).status).toBe(200);
    const replay = await api.post('/auth/siwe', signed);
    expect(replay.status).toBe(401);
    expect(replay.body.reason).toBe('SIWE_NONCE_INVALID');
  });

  it('refuses a wrong domain, a wrong uri, an expired message, a future notBefore and a wrong chain', async () => {
    const user = await activeUser(api);
    const wallet = await linkWallet(api, user);
    const cases: [Parameters<typeof siweMessage>[2], string][] = [
      [{ domain: 'evil.example' }, 'SIWE_DOMAIN_MISMATCH'],
      [{ uri: 'https://evil.example/login' }, 'SIWE_URI_MISMATCH'],
      [{ expirationTime: new Date(Date.now() - 1000) }, 'SIWE_EXPIRED'],
      [{ notBefore: new Date(Date.now() + 3_600_000) }, 'SIWE_NOT_YET_VALID'],
      [{ chainId: 999 }, 'SIWE_CHAIN_NOT_ALLOWED'],
    ];
    for (const [overrides, reason] of cases) {
      const res = await api.post('/auth/siwe', await siweMessage(api, wallet, overrides));
      expect(res.status, reason).toBe(401);
      expect(res.body.reason).toBe(reason);
    }
  });

  it('refuses a tampered message and another key’s signature', async () => {
    const user = await activeUser(api);
    const wallet = await linkWallet(api, user);
    const signed = await siweMessage(api, wallet);
    const tampered = await api.post('/auth/siwe', {
      ...signed,
      message: signed.message.replace('Chain ID: 1', 'Chain ID: 10'),
    });
    expect(tampered.status).toBe(401);
    expect(tampered.body.reason).toBe('INVALID_SIGNATURE');

    const other = newWallet();
    const msg = (await siweMessage(api, wallet)).message;
    const forged = await api.post('/auth/siwe', {
      message: msg,
      signature: await other.signMessage({ message: msg }),
    });
    expect(forged.status).toBe(401);
    expect(forged.body.reason).toBe('INVALID_SIGNATURE');
  });

  it('answers WALLET_NOT_LINKED for a wallet nobody linked', async () => {
    const res = await api.post('/auth/siwe', await siweMessage(api, newWallet()));
    expect(res.status).toBe(401);
    expect(res.body.reason).toBe('WALLET_NOT_LINKED');
  });

  it('says ACCOUNT_DELETED (not WALLET_NOT_LINKED) for the wallet of a deleted account, which stays taken', async () => {
    const gone = await activeUser(api);
    const wallet = await linkWallet(api, gone);
    expect((await api.delete(`/users/${gone.id}`, { token: gone.token })).status).toBe(204);
    const res = await api.post('/auth/siwe', await siweMessage(api, wallet));
    expect(res.status).toBe(401);
    expect(res.body.reason).toBe('ACCOUNT_DELETED');
    const other = await activeUser(api);
    const relink = await api.post('/auth/wallets', await siweMessage(api, wallet), { token: other.token });
    expect(relink.status).toBe(409);
  });

  it('keeps one wallet to one user (409), and linking needs a session', async () => {
    const a = await activeUser(api);
    const b = await activeUser(api);
    const wallet = await linkWallet(api, a);
    const res = await api.post('/auth/wallets', await siweMessage(api, wallet), { token: b.token });
    expect(res.status).toBe(409);
    expect((await api.post('/auth/wallets', await siweMessage(api, newWallet()))).status).toBe(401);
  });

  it('refuses a message that is not EIP-4361 with 400', async () => {
    const res = await api.post('/auth/siwe', { message: 'hello', signature: '0x1234' });
    expect(res.status).toBe(400);
  });
});

describe('primary wallet', () => {
  it('is the first linked, and the owner can make another one primary; new pins then record it', async () => {
    const user = await activeUser(api);
    const first = await linkWallet(api, user);
    const second = await linkWallet(api, user);
    const listed = await api.get('/auth/wallets', { token: user.token });
    expect(listed.body.items).toEqual([
      expect.objectContaining({ address: first.address, isPrimary: true }),
      expect.objectContaining({ address: second.address, isPrimary: false }),
    ]);
    expect(listed.body.pagination).toEqual({ total: 2, page: 1, limit: 50, totalPages: 1 });
    const paged = await api.get('/auth/wallets?page=2&limit=1', { token: user.token });
    expect(paged.body.items).toEqual([expect.objectContaining({ address: second.address })]);
    const cid = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
    expect((await api.post(`/ipfs/pin/${cid}`, undefined, { token: user.token })).body.owner).toBe(
      first.address,
    );

    // any casing of one's own address; exactly one primary afterwards, even when two changes race
    const [a, b] = await Promise.all([
      api.post(`/auth/wallets/${second.address.toLowerCase()}/primary`, undefined, { token: user.token }),
      api.post(`/auth/wallets/${second.address}/primary`, undefined, { token: user.token }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const after = (await api.get('/auth/wallets', { token: user.token })).body.items as {
      address: string;
      isPrimary: boolean;
    }[];
    expect(after.filter((w) => w.isPrimary).map((w) => w.address)).toEqual([second.address]);
    const other = 'bafkreie7ohywtosou76tasm7j63yigtzxe7d5zqus4zu3j6oltvgtibeom';
    expect((await api.post(`/ipfs/pin/${other}`, undefined, { token: user.token })).body.owner).toBe(
      second.address,
    );

    const stranger = await activeUser(api);
    const theirs = await linkWallet(api, stranger);
    const refused = await api.post(`/auth/wallets/${theirs.address}/primary`, undefined, {
      token: user.token,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe('NOT_YOUR_ADDRESS');
    expect((await api.post('/auth/wallets/0x123/primary', undefined, { token: user.token })).status).toBe(
      400,
    );
    expect((await api.post(`/auth/wallets/${first.address}/primary`)).status).toBe(401);
  });
});
