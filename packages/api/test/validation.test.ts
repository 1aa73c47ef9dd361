import { NUL_MESSAGE } from '@plenum/validators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from './support/api';
import { failure } from './support/errors';
import { activeUser, daoInput, memberUser, registration } from './support/factories';

/** Input validation as the routers report it: 400 VALIDATION_FAILED with one field issue per problem. */

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(() => api?.close());

const paths = (issues: { path: string }[] | undefined) => (issues ?? []).map((i) => i.path).sort();

describe('schema errors', () => {
  it('name every invalid field of the input', async () => {
    const caller = await api.caller();
    const f = await failure(caller.registration.register(registration({ email: 'nope', firstName: '   ' })));
    expect(f).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400, reason: 'VALIDATION_FAILED' });
    expect(paths(f.issues)).toEqual(['email', 'firstName']);
    expect(f.issues?.find((i) => i.path === 'email')?.message).toBe('must be a valid email address');
    expect(f.issues?.find((i) => i.path === 'firstName')?.message).toBe('required');
  });

  it('refuse fields the procedure does not take, such as a role at registration', async () => {
    const input = { ...registration(), role: 'admin' };
    const f = await failure((await api.caller()).registration.register(input as never));
    expect(f.reason).toBe('VALIDATION_FAILED');
    expect(f.issues).toEqual([expect.objectContaining({ path: '', code: 'unrecognized_keys' })]);
    expect(f.issues?.[0]?.message).toContain('role');
  });

  it('keep a string where a boolean belongs a 400 (no coercion)', async () => {
    const input = { ...registration(), acceptedTerms: 'true' };
    const f = await failure((await api.caller()).registration.register(input as never));
    expect(f.issues).toEqual([expect.objectContaining({ path: 'acceptedTerms', code: 'invalid_type' })]);
  });

  it('give nested fields dotted paths', async () => {
    const member = await memberUser(api);
    const caller = await api.caller(member.token);
    const dao = daoInput(member.wallet.address, { votingRules: { threshold: 0, quorum: 101 } });
    const f = await failure(caller.governance.daos.create(dao));
    expect(paths(f.issues)).toEqual(['votingRules.quorum', 'votingRules.threshold']);

    const { daoId } = await caller.governance.daos.create(daoInput(member.wallet.address));
    const proposal = { daoId, title: 'T', creatorAddress: member.wallet.address, votingDurationHours: 1 };
    const dup = await failure(
      caller.governance.proposals.create({ ...proposal, votingOptions: ['Yes', 'yes'] }),
    );
    expect(dup.issues).toEqual([
      {
        path: 'votingOptions.1',
        message: 'options must be distinct (ignoring case)',
        code: 'options_distinct',
      },
    ]);
  });

  it('report the limits of a profile update', async () => {
    const user = await activeUser(api);
    const caller = await api.caller(user.token);
    const socialLinks = Object.fromEntries(
      Array.from({ length: 21 }, (_, i) => [`site${i}`, 'https://x.org']),
    );
    const f = await failure(caller.users.update({ id: user.id, socialLinks, phoneNumber: 'call 555' }));
    expect(paths(f.issues)).toEqual(['phoneNumber', 'socialLinks']);
  });

  it('report core’s own field checks the same way, e.g. a date of birth not in the past', async () => {
    const user = await activeUser(api);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const f = await failure(
      (await api.caller(user.token)).users.update({ id: user.id, dateOfBirth: tomorrow }),
    );
    expect(f).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    expect(f.issues).toEqual([expect.objectContaining({ path: 'dateOfBirth', code: 'not_in_past' })]);
  });
});

describe('the NUL character check', () => {
  it('answers 400 VALIDATION_FAILED with a nul_character issue for the field', async () => {
    const f = await failure(
      (await api.caller()).registration.register(registration({ lastName: 'Love\u0000lace' })),
    );
    expect(f).toMatchObject({ code: 'BAD_REQUEST', reason: 'VALIDATION_FAILED' });
    expect(f.issues).toEqual([{ path: 'lastName', message: NUL_MESSAGE, code: 'nul_character' }]);
    expect(f.message).toContain('lastName');
  });

  it('runs before the schema: only the NUL is reported, not the other invalid fields', async () => {
    const input = registration({ email: 'not-an-email', firstName: '\u0000' });
    const f = await failure((await api.caller()).registration.register(input));
    expect(f.issues?.map((i) => [i.path, i.code])).toEqual([['firstName', 'nul_character']]);
  });

  it('finds NUL in object keys and in query inputs', async () => {
    const user = await activeUser(api);
    const caller = await api.caller(user.token);
    const key = await failure(
      caller.users.update({ id: user.id, socialLinks: { 'git\u0000hub': 'https://x.org' } }),
    );
    expect(key.issues).toEqual([
      { path: 'socialLinks.git\u0000hub', message: `key ${NUL_MESSAGE}`, code: 'nul_character' },
    ]);

    const query = await failure(caller.governance.daos.list({ status: 'ACTIVE\u0000' as never }));
    expect(query.issues).toEqual([{ path: 'status', message: NUL_MESSAGE, code: 'nul_character' }]);
  });

  it('lets the same input through once the NUL is gone', async () => {
    const user = await (await api.caller()).registration.register(registration({ lastName: 'Lovelace' }));
    expect(user.lastName).toBe('Lovelace');
  });
});
