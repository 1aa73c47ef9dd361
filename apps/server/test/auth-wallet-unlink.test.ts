import { NO_PASSWORD } from '@plenum/core';
import { auditLog, users, wallets } from '@plenum/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import {
  activeUser,
  linkWallet,
  memberUser,
  newWallet,
  PASSWORD,
  siweMessage,
  type TestUser,
} from './support/factories';
import { addMember, createDao, createProposal } from './support/governance';
import { type ApiClient, apiClient } from './support/http';

/**
 * Unlinking a wallet (docs/accounts.md, "Unlinking a wallet"): 204 and the wallet is gone (no sign-in
 * with it, free to link again); 404 for anyone else's; 409 WALLET_IN_USE while it runs a DAO, naming the
 * DAOs; 409 LAST_SIGN_IN_METHOD for a password-less account's only wallet, also under concurrency.
 */
let t: TestApp;
let api: ApiClient;
beforeAll(async () => {
  t = await startTestApp();
  api = apiClient(t.url);
});
afterAll(() => t.close());

const unlink = (who: TestUser, address: string) =>
  api.delete(`/auth/wallets/${address}`, { token: who.token });
const addresses = async (who: TestUser) =>
  (
    (await api.get('/auth/wallets', { token: who.token })).body.items as {
      address: string;
      isPrimary: boolean;
    }[]
  ).map((w) => `${w.address}${w.isPrimary ? '*' : ''}`);

/** an account without a password (as a future sign-in method would create it) and with n wallets */
async function passwordless(n: number) {
  const user = await activeUser(api);
  for (let i = 0; i < n; i++) await linkWallet(api, user);
  await t.app.svc.db.update(users).set({ passwordHash: NO_PASSWORD }).where(eq(users.id, user.id));
  return user;
}

describe('DELETE /auth/wallets/{address}', () => {
  it('unlinks (204): gone from the list, no sign-in with it, audited, and it can be linked again', async () => {
    const user = await activeUser(api);
    const wallet = await linkWallet(api, user);
    const res = await unlink(user, wallet.address.toLowerCase());
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    expect(await addresses(user)).toEqual([]);
    const siwe = await api.post('/auth/siwe', await siweMessage(api, wallet));
    expect(siwe.status).toBe(401);
    expect(siwe.body.reason).toBe('WALLET_NOT_LINKED');
    const audit = await t.app.svc.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'wallet.unlinked'), eq(auditLog.targetId, user.id)));
    expect(audit).toMatchObject([{ actorId: user.id, details: { address: wallet.address } }]);
    // the session that made the request goes on: sessions are the account's, not the wallet's
    expect((await api.get('/auth/me', { token: user.token })).status).toBe(200);

    const other = await activeUser(api);
    await linkWallet(api, other, wallet);
    expect(await addresses(other)).toEqual([`${wallet.address}*`]);
    expect((await api.post('/auth/siwe', await siweMessage(api, wallet))).body.user.id).toBe(other.id);
  });

  it('answers 404 for another account’s wallet and for one linked to nobody, changing nothing', async () => {
    const me = await memberUser(api);
    const them = await memberUser(api);
    for (const address of [them.wallet.address, newWallet().address]) {
      const res = await unlink(me, address);
      expect(res.status, address).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
    expect(await addresses(them)).toEqual([`${them.wallet.address}*`]);
    expect((await unlink(me, 'not-an-address')).status).toBe(400);
    expect((await api.delete(`/auth/wallets/${me.wallet.address}`)).status).toBe(401);
  });

  it('makes the oldest remaining wallet primary when the primary one goes', async () => {
    const user = await activeUser(api);
    const [a, b, c] = [await linkWallet(api, user), await linkWallet(api, user), await linkWallet(api, user)];
    expect((await unlink(user, a.address)).status).toBe(204);
    expect(await addresses(user)).toEqual([`${b.address}*`, c.address]);
    expect((await unlink(user, c.address)).status).toBe(204);
    expect(await addresses(user)).toEqual([`${b.address}*`]);
  });

  it('refuses (409 WALLET_IN_USE) while the address owns a DAO, naming it; a transfer first frees it', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, undefined, { name: 'Garden Club' });
    const res = await unlink(owner, owner.wallet.address);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'CONFLICT',
      reason: 'WALLET_IN_USE',
      issues: [{ path: '', code: 'owns_dao', params: { daoId: dao.daoId, name: 'Garden Club' } }],
    });
    expect(res.body.message).toContain('Garden Club');

    // the transfer's target is blocked while it waits; the owner is free once it is accepted
    const next = await memberUser(api);
    const offer = await api.post(
      `/daos/${dao.daoId}/owner`,
      { newOwnerAddress: next.wallet.address },
      { token: owner.token },
    );
    expect(offer.status).toBe(202);
    const pending = await unlink(next, next.wallet.address);
    expect(pending.status).toBe(409);
    expect(pending.body.issues).toEqual([expect.objectContaining({ code: 'pending_dao_owner' })]);
    expect((await api.post(`/daos/${dao.daoId}/owner/accept`, {}, { token: next.token })).status).toBe(200);
    // the old owner keeps an admin role: still in use, now as an admin
    const admin = await unlink(owner, owner.wallet.address);
    expect(admin.body.issues).toEqual([
      expect.objectContaining({
        code: 'dao_role',
        params: { daoId: dao.daoId, name: 'Garden Club', role: 'admin' },
      }),
    ]);
    const drop = await api.delete(`/daos/${dao.daoId}/roles/${owner.wallet.address}`, { token: next.token });
    expect(drop.status).toBe(204);
    expect((await unlink(owner, owner.wallet.address)).status).toBe(204);
  });

  it('refuses a DAO role (409); membership, votes and delegations do not block and stay as they were', async () => {
    const owner = await memberUser(api);
    const dao = await createDao(api, owner, { threshold: 50, delegation: true }, { name: 'Seed Bank' });
    const author = await memberUser(api);
    const put = await api.put(
      `/daos/${dao.daoId}/roles/${author.wallet.address}`,
      { role: 'author' },
      { token: owner.token },
    );
    expect(put.status).toBe(200);
    const refused = await unlink(author, author.wallet.address);
    expect(refused.status).toBe(409);
    expect(refused.body.issues).toEqual([
      expect.objectContaining({
        code: 'dao_role',
        params: { daoId: dao.daoId, name: 'Seed Bank', role: 'author' },
      }),
    ]);

    const voter = await memberUser(api);
    await addMember(api, owner, dao.daoId, voter.wallet.address);
    const p = await createProposal(api, owner, dao.daoId);
    const vote = await api.post(
      '/votes',
      { proposalId: p.proposalId, daoId: dao.daoId, voterAddress: voter.wallet.address, choice: 'For' },
      { token: voter.token },
    );
    expect(vote.status, JSON.stringify(vote.body)).toBe(201);
    const delegation = await api.put(
      `/daos/${dao.daoId}/delegation`,
      { delegatorAddress: voter.wallet.address, delegateAddress: owner.wallet.address },
      { token: voter.token },
    );
    expect(delegation.status, JSON.stringify(delegation.body)).toBe(200);

    expect((await unlink(voter, voter.wallet.address)).status).toBe(204);
    const mine = await api.get(`/votes/proposal/${p.proposalId}/voter/${voter.wallet.address}`);
    expect(mine.body).toMatchObject({ voterAddress: voter.wallet.address, choice: 'For' });
    const delegates = await api.get(`/daos/${dao.daoId}/delegates`);
    expect(delegates.body.items).toEqual([
      expect.objectContaining({ address: owner.wallet.address, delegatorCount: 1 }),
    ]);
  });

  it('never removes the last way to sign in (409 LAST_SIGN_IN_METHOD); with a password it may go', async () => {
    const only = await passwordless(1);
    const res = await unlink(only, only.wallet!.address);
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe('LAST_SIGN_IN_METHOD');
    expect(await addresses(only)).toEqual([`${only.wallet!.address}*`]);

    const two = await passwordless(2);
    const [first, second] = await addresses(two);
    expect((await unlink(two, first!.replace('*', ''))).status).toBe(204);
    expect((await unlink(two, second!)).body.reason).toBe('LAST_SIGN_IN_METHOD');

    const withPassword = await memberUser(api);
    expect((await unlink(withPassword, withPassword.wallet.address)).status).toBe(204);
  });

  it('on the cookie path needs the app’s own origin (403 CSRF from another)', async () => {
    const user = await memberUser(api);
    const login = await api.post('/auth/login', { email: user.email, password: PASSWORD });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const path = `/auth/wallets/${user.wallet.address}`;
    const evil = await api.delete(path, { headers: { cookie, origin: 'http://localhost:3001' } });
    expect(evil.status).toBe(403);
    expect(evil.body.reason).toBe('CSRF');
    expect(await addresses(user)).toHaveLength(1);
    const own = await api.delete(path, { headers: { cookie, origin: 'http://localhost:3000' } });
    expect(own.status).toBe(204);
  });

  it.runIf(TEST_DB === 'postgres')(
    'a password-less account unlinking both its wallets, 10 requests each at once: exactly one 204',
    async () => {
      const user = await passwordless(2);
      const both = (await addresses(user)).map((a) => a.replace('*', ''));
      const results = await Promise.all(
        both.flatMap((address) => Array.from({ length: 10 }, () => unlink(user, address))),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 204)).toHaveLength(1);
      // the other requests: the same wallet already gone (404), or the last one left (409)
      expect(statuses.filter((s) => s !== 204 && s !== 404 && s !== 409)).toEqual([]);
      expect(
        results.filter((r) => r.status === 409).every((r) => r.body.reason === 'LAST_SIGN_IN_METHOD'),
      ).toBe(true);
      const left = await t.app.svc.db.select().from(wallets).where(eq(wallets.userId, user.id));
      expect(left).toHaveLength(1);
      expect(left[0]!.isPrimary).toBe(true);
    },
  );
});
