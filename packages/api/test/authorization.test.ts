import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from './support/api';
import { failure } from './support/errors';
import { activeUser, daoInput, newWallet, pendingUser } from './support/factories';

/** The router layer's own gates: authedProcedure, activeProcedure and adminProcedure. */

const ADMIN_EMAIL = 'root.admin@example.org';
let api: TestApi;

beforeAll(async () => {
  api = await createTestApi({ config: { adminEmails: [ADMIN_EMAIL] } });
});
afterAll(() => api?.close());

describe('authedProcedure', () => {
  it('refuses an anonymous caller with 401 NOT_SIGNED_IN', async () => {
    const f = await failure((await api.caller()).auth.me());
    expect(f).toMatchObject({ code: 'UNAUTHORIZED', httpStatus: 401, reason: 'NOT_SIGNED_IN' });
  });

  it('treats an unknown token like no token', async () => {
    const f = await failure((await api.caller('not-a-real-session-token')).auth.me());
    expect(f.code).toBe('UNAUTHORIZED');
  });

  it('checks the caller before the input: an anonymous invalid input is a 401, not a 400', async () => {
    const caller = await api.caller();
    const f = await failure(caller.governance.daos.create({ name: '' } as never));
    expect(f.code).toBe('UNAUTHORIZED');
  });

  it('lets an unverified user through (only activeProcedure needs a verified email)', async () => {
    const user = await pendingUser(api);
    const me = await (await api.caller(user.token)).auth.me();
    expect(me.user).toMatchObject({ id: user.id, status: 'pending_verification', emailVerified: false });
  });
});

describe('activeProcedure', () => {
  it('refuses an unverified user with 403 EMAIL_NOT_VERIFIED', async () => {
    const user = await pendingUser(api);
    const f = await failure(
      (await api.caller(user.token)).governance.daos.create(daoInput(newWallet().address)),
    );
    expect(f).toMatchObject({ code: 'FORBIDDEN', httpStatus: 403, reason: 'EMAIL_NOT_VERIFIED' });
  });

  it('lets an unverified user through when verification is not required', async () => {
    const user = await pendingUser(api);
    const caller = await api.caller(user.token);
    api.svc.config.emailVerificationRequired = false;
    try {
      // past the gate, core refuses: the address is not one of the user's wallets
      const f = await failure(caller.governance.daos.create(daoInput(newWallet().address)));
      expect(f.reason).not.toBe('EMAIL_NOT_VERIFIED');
      expect(f.code).toBe('FORBIDDEN');
    } finally {
      api.svc.config.emailVerificationRequired = true;
    }
  });

  it('refuses an anonymous caller with 401 before the email check', async () => {
    const f = await failure((await api.caller()).governance.daos.create(daoInput(newWallet().address)));
    expect(f.code).toBe('UNAUTHORIZED');
  });
});

describe('adminProcedure', () => {
  it('refuses a verified non-admin with 403 ADMIN_ONLY', async () => {
    const user = await activeUser(api);
    const caller = await api.caller(user.token);
    expect(await failure(caller.adminUsers.list({}))).toMatchObject({
      code: 'FORBIDDEN',
      reason: 'ADMIN_ONLY',
    });
    expect((await failure(caller.adminUsers.stats())).reason).toBe('ADMIN_ONLY');
  });

  it('refuses an anonymous caller with 401', async () => {
    expect((await failure((await api.caller()).adminUsers.list({}))).code).toBe('UNAUTHORIZED');
  });

  it('serves an admin, who can suspend a user whose token then stops working', async () => {
    const admin = await activeUser(api, { email: ADMIN_EMAIL });
    const target = await activeUser(api);
    const asAdmin = await api.caller(admin.token);
    const listed = await asAdmin.adminUsers.list({ search: target.email });
    expect(listed.users.map((u) => u.id)).toEqual([target.id]);

    const suspended = await asAdmin.adminUsers.suspend({ id: target.id, reason: 'spam' });
    expect(suspended).toMatchObject({ id: target.id, status: 'suspended' });
    expect((await failure((await api.caller(target.token)).auth.me())).code).toBe('UNAUTHORIZED');
  });
});
