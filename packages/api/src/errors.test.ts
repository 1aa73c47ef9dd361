import { AppError } from '@plenum/core';
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { errorDetails, toTRPCError, zodIssuesToFieldIssues } from './errors';

/** driver errors as postgres.js and PGlite raise them, wrapped by drizzle in `cause` */
const driverError = (code: string) => Object.assign(new Error('driver says no'), { code });
const drizzleWrapped = (code: string) => new Error('Failed query: insert …', { cause: driverError(code) });

describe('toTRPCError', () => {
  it('keeps the code, message and reason of an AppError', () => {
    const app = new AppError('CONFLICT', 'Email already registered', { reason: 'EMAIL_TAKEN' });
    const mapped = toTRPCError(app);
    expect(mapped).toBeInstanceOf(TRPCError);
    expect(mapped).toMatchObject({ code: 'CONFLICT', message: 'Email already registered', cause: app });
  });

  it.each(['BAD_REQUEST', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'BAD_GATEWAY', 'GATEWAY_TIMEOUT'] as const)(
    'maps AppError %s to the tRPC code of the same name',
    (code) => {
      expect(toTRPCError(new AppError(code, 'x'))?.code).toBe(code);
    },
  );

  it('turns a unique violation, bare or wrapped by drizzle, into 409 CONFLICT', () => {
    for (const err of [driverError('23505'), drizzleWrapped('23505')]) {
      const mapped = toTRPCError(err);
      expect(mapped?.code).toBe('CONFLICT');
      expect(mapped?.message).toBe('Conflicts with an existing record');
    }
  });

  it('turns connection failures into 503 SERVICE_UNAVAILABLE with reason DATABASE_UNAVAILABLE', () => {
    for (const err of [driverError('ECONNREFUSED'), drizzleWrapped('08006'), driverError('57P01')]) {
      const mapped = toTRPCError(err);
      expect(mapped?.code).toBe('SERVICE_UNAVAILABLE');
      expect(errorDetails(mapped!).reason).toBe('DATABASE_UNAVAILABLE');
    }
  });

  it('turns a deadlock or serialization failure into 503 SERVICE_UNAVAILABLE with reason DATABASE_BUSY', () => {
    for (const err of [driverError('40P01'), drizzleWrapped('40001'), drizzleWrapped('55P03')]) {
      const mapped = toTRPCError(err);
      expect(mapped?.code).toBe('SERVICE_UNAVAILABLE');
      expect(errorDetails(mapped!).reason).toBe('DATABASE_BUSY');
      expect(mapped?.message).not.toMatch(/deadlock|driver/);
    }
  });

  it('leaves other database and programming errors unmapped (they stay internal)', () => {
    expect(toTRPCError(driverError('23503'))).toBeNull(); // foreign key
    expect(toTRPCError(new TypeError('undefined is not a function'))).toBeNull();
    expect(toTRPCError('a string')).toBeNull();
  });

  it('unwraps an internal TRPCError to the domain error it carries, and keeps other TRPCErrors', () => {
    const wrapped = new TRPCError({
      code: 'INTERNAL_SERVER_ERROR',
      cause: new AppError('NOT_FOUND', 'gone'),
    });
    expect(toTRPCError(wrapped)?.code).toBe('NOT_FOUND');
    const opaque = new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: new Error('boom') });
    expect(toTRPCError(opaque)).toBe(opaque);
    const forbidden = new TRPCError({ code: 'FORBIDDEN' });
    expect(toTRPCError(forbidden)).toBe(forbidden);
  });
});

describe('zodIssuesToFieldIssues', () => {
  it('joins paths with dots and keeps the code when there is one', () => {
    expect(
      zodIssuesToFieldIssues([
        { path: ['votingRules', 'threshold'], message: 'too small', code: 'too_small' },
        { path: ['options', 1], message: 'duplicate' },
        { path: [], message: 'bad' },
      ]),
    ).toEqual([
      { path: 'votingRules.threshold', message: 'too small', code: 'too_small' },
      { path: 'options.1', message: 'duplicate' },
      { path: '', message: 'bad' },
    ]);
  });
});

describe('errorDetails', () => {
  it('reads reason and issues from an AppError cause, and nothing from an unknown cause', () => {
    const issues = [{ path: 'name', message: 'required' }];
    const err = new TRPCError({
      code: 'BAD_REQUEST',
      cause: new AppError('BAD_REQUEST', 'x', { reason: 'VALIDATION_FAILED', issues }),
    });
    expect(errorDetails(err)).toEqual({ reason: 'VALIDATION_FAILED', issues });
    expect(errorDetails(new TRPCError({ code: 'BAD_REQUEST', cause: new Error('x') }))).toEqual({});
  });
});
