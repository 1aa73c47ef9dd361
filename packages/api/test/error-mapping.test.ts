import { Writable } from 'node:stream';
import { AppError, createLogger } from '@plenum/core';
import { siweNonces } from '@plenum/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCallerFactory, publicProcedure, router } from '../src/trpc';
import { createTestApi, newResponse, type TestApi } from './support/api';
import { failure } from './support/errors';
import { registration } from './support/factories';

/**
 * What every procedure does with a failure (the errorMapping middleware and the error formatter of
 * trpc.ts), shown on a small router of the real procedure builders, then on the real routers.
 */

const SECRET = 'SELECT password_hash FROM users -- internal detail';

const probe = router({
  appError: publicProcedure.query(() => {
    throw new AppError('CONFLICT', 'Already voted', { reason: 'ALREADY_VOTED' });
  }),
  throttled: publicProcedure.query(() => {
    throw new AppError('TOO_MANY_REQUESTS', 'Slow down', { retryAfterSeconds: 30 });
  }),
  duplicateRow: publicProcedure.mutation(async ({ ctx }) => {
    const row = { nonce: 'same-nonce', expiresAt: new Date(Date.now() + 60_000) };
    await ctx.svc.db.insert(siweNonces).values(row);
    await ctx.svc.db.insert(siweNonces).values(row); // a real unique violation from PGlite
  }),
  unreachable: publicProcedure.query(() => {
    throw new Error('Failed query', {
      cause: Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' }),
    });
  }),
  bug: publicProcedure.query(() => {
    throw new Error(SECRET);
  }),
  badOutput: publicProcedure.output(z.object({ n: z.number() })).query(() => ({ n: 'one' }) as never),
});
const createProbe = createCallerFactory(probe);

let api: TestApi;
const logLines: string[] = [];
beforeAll(async () => {
  api = await createTestApi();
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  api.svc.log = createLogger({ level: 'error', destination: sink });
});
afterAll(() => api?.close());

const probeCaller = async (response = newResponse()) => createProbe(await api.context(null, response));

describe('domain errors', () => {
  it('keep their code, message and reason', async () => {
    const f = await failure((await probeCaller()).appError());
    expect(f).toMatchObject({
      code: 'CONFLICT',
      httpStatus: 409,
      message: 'Already voted',
      reason: 'ALREADY_VOTED',
    });
  });

  it('set Retry-After when they say when to try again', async () => {
    const response = newResponse();
    const f = await failure((await probeCaller(response)).throttled());
    expect(f.httpStatus).toBe(429);
    expect(response.headers['Retry-After']).toBe('30');
  });

  it('map a unique violation to 409 CONFLICT', async () => {
    const f = await failure((await probeCaller()).duplicateRow());
    expect(f).toMatchObject({
      code: 'CONFLICT',
      httpStatus: 409,
      message: 'Conflicts with an existing record',
    });
  });

  it('map an unreachable database to 503 DATABASE_UNAVAILABLE', async () => {
    const f = await failure((await probeCaller()).unreachable());
    expect(f).toMatchObject({ code: 'SERVICE_UNAVAILABLE', httpStatus: 503, reason: 'DATABASE_UNAVAILABLE' });
  });
});

describe('unexpected errors', () => {
  it('answer 500 "Internal server error" without their message or stack, and are logged', async () => {
    logLines.length = 0;
    const f = await failure((await probeCaller()).bug(), 'bug');
    expect(f).toMatchObject({
      code: 'INTERNAL_SERVER_ERROR',
      httpStatus: 500,
      message: 'Internal server error',
    });
    expect(JSON.stringify(f.shape)).not.toContain('password_hash');
    expect(logLines.join('')).toContain('procedure failed');
  });

  it('hide an output that breaks its own schema the same way', async () => {
    const f = await failure((await probeCaller()).badOutput());
    expect(f).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' });
  });
});

describe('the error formatter', () => {
  it('never includes a stack, whatever the error', async () => {
    const anon = await api.caller();
    const calls = [
      (await probeCaller()).bug(),
      (await probeCaller()).appError(),
      anon.auth.me(),
      anon.registration.register(registration({ email: 'nope' })),
    ];
    for (const call of calls) {
      const f = await failure(call);
      expect(f.shape.data).not.toHaveProperty('stack');
      expect(JSON.stringify(f.shape)).not.toMatch(/\n\s+at /);
    }
  });

  it('puts reason and field issues in data, once', async () => {
    const f = await failure((await api.caller()).registration.register(registration({ email: 'nope' })));
    expect(f.shape.data.reason).toBe('VALIDATION_FAILED');
    expect(f.shape.data.issues).toEqual(f.issues);
    expect(f.shape).not.toHaveProperty('reason');
    expect(f.shape).not.toHaveProperty('fieldIssues');
    expect(f.issues?.map((i) => i.path)).toEqual(['email']);
  });
});

describe('the real routers', () => {
  it('answer 409 EMAIL_TAKEN to a second registration of one email', async () => {
    const anon = await api.caller();
    const input = registration();
    await anon.registration.register(input);
    const f = await failure(anon.registration.register({ ...input, email: input.email.toUpperCase() }));
    expect(f).toMatchObject({ code: 'CONFLICT', reason: 'EMAIL_TAKEN' });
  });

  it('answer 404 for a DAO that does not exist', async () => {
    const f = await failure((await api.caller()).governance.daos.get({ daoId: crypto.randomUUID() }));
    expect(f).toMatchObject({ code: 'NOT_FOUND', httpStatus: 404 });
  });

  it('answer 503 STORAGE_UNAVAILABLE while no storage runtime is running', async () => {
    const cid = 'bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq';
    const f = await failure((await api.caller()).storage.get({ cid }));
    expect(f).toMatchObject({ code: 'SERVICE_UNAVAILABLE', httpStatus: 503, reason: 'STORAGE_UNAVAILABLE' });
  });
});
