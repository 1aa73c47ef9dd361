import type { Context, Meta } from '@plenum/api';
import { initTRPC } from '@trpc/server';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorReply } from '../src/http/errors';
import { registerRest } from '../src/http/rest';

/**
 * The REST adapter (src/http/rest.ts; docs/api.md, "Transports") on a router of its own: query strings
 * coerced to the schema's types, JSON bodies taken as they are, and the shared schema left untouched, so
 * tRPC keeps refusing what REST would have coerced.
 */
const t = initTRPC.meta<Meta>().create();
const flag = z.object({ flag: z.boolean(), count: z.number() });
const router = t.router({
  setFlag: t.procedure
    .meta({ openapi: { method: 'POST', path: '/flag' } })
    .input(flag)
    .output(flag)
    .mutation(({ input }) => input),
  read: t.procedure
    .meta({ openapi: { method: 'GET', path: '/read/{id}' } })
    .input(
      z.object({ id: z.string(), count: z.number(), on: z.boolean().optional(), tags: z.array(z.string()) }),
    )
    .output(z.unknown())
    .query(({ input }) => input),
  nothing: t.procedure
    .meta({ openapi: { method: 'DELETE', path: '/nothing' }, successStatus: 204 })
    .input(z.void())
    .output(z.void())
    .mutation(() => undefined),
});

const app = Fastify();
let url: string;
beforeAll(async () => {
  app.setErrorHandler(async (err, _request, reply) => {
    const answer = errorReply(err);
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  });
  await registerRest(app, { router, createContext: () => ({}) as Context });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

const post = (body: unknown) =>
  fetch(`${url}/flag`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('the REST adapter', () => {
  it('takes a JSON body as it is: "false" is no boolean', async () => {
    const bad = await post({ flag: 'false', count: '12' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'BAD_REQUEST', reason: 'VALIDATION_FAILED' });
    const good = await post({ flag: false, count: 12 });
    expect([good.status, good.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    expect(await good.json()).toEqual({ flag: false, count: 12 });
  });

  it('coerces query strings to the types the schema asks for, the path parameter over the query', async () => {
    const res = await fetch(`${url}/read/abc?count=12&on=1&tags=x&id=other`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 'abc', count: 12, on: true, tags: ['x'] });
    expect((await fetch(`${url}/read/abc?count=twelve&tags=x`)).status).toBe(400);
  });

  it('leaves the shared schema as it is: tRPC still refuses a string for a number', async () => {
    expect((await fetch(`${url}/read/abc?count=1&on=1&tags=x`)).status).toBe(200);
    // a string where the schema wants a number: what a broken client sends
    const viaTrpc = await t
      .createCallerFactory(router)({})
      .read({ id: 'abc', count: '1', tags: [] } as never)
      .then(
        () => 'accepted',
        (e: { code?: string }) => e.code,
      );
    expect(viaTrpc).toBe('BAD_REQUEST');
  });

  it('answers 204 without a body or Content-Type, and 415 naming a body type it does not read', async () => {
    const done = await fetch(`${url}/nothing`, { method: 'DELETE' });
    expect([done.status, done.headers.get('content-type'), await done.text()]).toEqual([204, null, '']);
    const form = await fetch(`${url}/flag`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'flag=true',
    });
    expect(form.status).toBe(415);
    expect(await form.json()).toMatchObject({ message: 'Unsupported content-type "text/plain"' });
  });
});
