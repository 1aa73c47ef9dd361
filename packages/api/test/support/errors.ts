import { getTRPCErrorShape, TRPCError } from '@trpc/server';
import { expect } from 'vitest';
import { appRouter } from '../../src/root';

export interface Failure {
  /** the tRPC code name (HTTP status name) */
  code: TRPCError['code'];
  httpStatus: number | undefined;
  message: string;
  reason: string | undefined;
  issues: { path: string; message: string; code?: string }[] | undefined;
  /** the error exactly as a client receives it, through the router's error formatter */
  shape: Record<string, unknown> & { data: Record<string, unknown> };
}

/**
 * Awaits a call that must fail and returns what a client would be told: the thrown TRPCError put
 * through appRouter's own error formatter, as the HTTP and WebSocket adapters do.
 */
export async function failure(call: Promise<unknown>, path = 'test.call'): Promise<Failure> {
  const error = await call.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpcError = error as TRPCError;
  const shape = getTRPCErrorShape({
    config: appRouter._def._config,
    error: trpcError,
    type: 'mutation',
    path,
    input: undefined,
    ctx: undefined,
  }) as unknown as Failure['shape'];
  const data = shape.data as { code: TRPCError['code']; httpStatus?: number };
  return {
    code: data.code,
    httpStatus: data.httpStatus,
    message: shape.message as string,
    reason: shape.data.reason as string | undefined,
    issues: shape.data.issues as Failure['issues'],
    shape,
  };
}
