import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverError } from '../test-support/trpc-error';
import { readable } from './readable';
import { networkError, RestError, restError, restJson } from './rest';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('restError', () => {
  it('prefers the wording for a known reason, then the server’s message, then the status', () => {
    expect(restError(403, { reason: 'WALLET_REQUIRED', message: 'no wallet' }).message).toMatch(
      /^Storing files needs a linked wallet/,
    );
    expect(restError(404, { code: 'NOT_FOUND', message: 'No pin for this CID' }).message).toBe(
      'No pin for this CID',
    );
    expect(restError(413, {}).message).toBe('The file is too large.');
    expect(restError(418, null).message).toBe('The request failed (HTTP 418).');
  });

  it('reads the Pinning Service API’s error body', () => {
    const err = restError(400, { error: { reason: 'BAD_REQUEST', details: 'cid is not a CID' } });
    expect(err.display).toEqual({ message: 'cid is not a CID', reason: 'BAD_REQUEST', fields: {} });
  });

  it('never shows a body that looks like JSON or HTML', () => {
    expect(restError(502, { message: '<html>Bad gateway</html>' }).message).toBe(
      'The IPFS providers failed. Please try again later.',
    );
    expect(restError(400, { message: '{"a":1}' }).message).toBe('The request was not accepted.');
  });

  it('always asks to wait on 429, and groups field issues', () => {
    expect(restError(429, { reason: 'NOT_SIGNED_IN', message: 'x' }).message).toBe(
      'Too many requests. Please wait a minute and try again.',
    );
    const err = restError(400, {
      issues: [
        { path: 'file', message: 'required' },
        { path: 'file', message: 'too big' },
      ],
    });
    expect(err.display.fields).toEqual({ file: ['required', 'too big'] });
    expect(err).toBeInstanceOf(RestError);
    expect(err.status).toBe(400);
  });
});

describe('restJson', () => {
  const respond = (status: number, body: string) => vi.fn(async () => new Response(body, { status }));

  it('sends the session as a Bearer token and returns the JSON body', async () => {
    const fetchMock = respond(200, '{"items":[]}');
    vi.stubGlobal('fetch', fetchMock);
    expect(await restJson('https://api.example.org/pins', 'tok', { method: 'GET' })).toEqual({ items: [] });
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer tok');
  });

  it('sends no authorization without a session, and returns null for an empty body', async () => {
    const fetchMock = respond(200, '');
    vi.stubGlobal('fetch', fetchMock);
    expect(await restJson('https://api.example.org/x', null)).toBeNull();
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(new Headers(init.headers).has('authorization')).toBe(false);
  });

  it('throws a readable RestError for a failure, even with a body that is not JSON', async () => {
    vi.stubGlobal(
      'fetch',
      respond(401, '{"code":"UNAUTHORIZED","reason":"NOT_SIGNED_IN","message":"Sign in first"}'),
    );
    await expect(restJson('https://api.example.org/x', 'old')).rejects.toMatchObject({
      status: 401,
      message: 'Sign in first.',
    });
    vi.stubGlobal('fetch', respond(503, 'Service Unavailable'));
    await expect(restJson('https://api.example.org/x', null)).rejects.toMatchObject({ status: 503 });
  });

  it('turns a network failure into status 0 with a connection message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('fetch failed'))),
    );
    await expect(restJson('https://api.example.org/x', null)).rejects.toEqual(networkError());
    expect(networkError().status).toBe(0);
  });
});

describe('readable', () => {
  it('shows a RestError as it is and a tRPC error with the REST wording of its reason', () => {
    const rest = restError(413, {});
    expect(readable(rest)).toBe(rest.display);
    const trpc = serverError({ httpStatus: 403, reason: 'WALLET_REQUIRED', message: 'Link a wallet' });
    expect(readable(trpc)).toMatchObject({
      reason: 'WALLET_REQUIRED',
      message: expect.stringMatching(/^Storing files/),
    });
  });

  it('keeps the server’s message for reasons without REST wording', () => {
    const trpc = serverError({
      httpStatus: 409,
      reason: 'ALREADY_PINNED',
      message: 'You already pinned this CID',
    });
    expect(readable(trpc).message).toBe('You already pinned this CID');
  });
});
