import { describe, expect, it } from 'vitest';
import { toDisplayError } from './errors';
import { serverError, unreachable } from './test-support/trpc-error';

describe('toDisplayError with API errors', () => {
  it('shows the server’s sentence and reason, and groups field issues by path', () => {
    const err = serverError({
      message: 'Invalid input',
      reason: 'VALIDATION_FAILED',
      issues: [
        { path: 'email', message: 'must be a valid email address' },
        { path: 'votingOptions.1', message: 'options must be distinct' },
        { path: 'email', message: 'already registered' },
        { path: '', message: 'Unrecognized key: "role"' },
      ],
    });
    expect(toDisplayError(err)).toEqual({
      message: 'Invalid input',
      reason: 'VALIDATION_FAILED',
      fields: {
        email: ['must be a valid email address', 'already registered'],
        'votingOptions.1': ['options must be distinct'],
        '': ['Unrecognized key: "role"'],
      },
      // kept with their codes, to be put into the page's language where they are shown
      issues: expect.arrayContaining([{ path: 'email', message: 'already registered' }]),
    });
  });

  it('never shows raw JSON: asks to fix the fields, or says the request failed', () => {
    const json = '[{"code":"too_small","path":["name"]}]';
    const withFields = serverError({ message: json, issues: [{ path: 'name', message: 'required' }] });
    expect(toDisplayError(withFields).message).toBe('Please correct the highlighted fields.');
    expect(toDisplayError(serverError({ message: `  ${json}` })).message).toBe('Request failed.');
    expect(toDisplayError(serverError({ message: '' })).message).toBe('Request failed.');
  });

  it('words a 429 as a request to wait, whatever the server said', () => {
    const err = serverError({ httpStatus: 429, message: 'Rate limit exceeded', reason: 'RATE_LIMITED' });
    expect(toDisplayError(err)).toMatchObject({
      message: 'Too many attempts. Please wait a minute and try again.',
      reason: 'RATE_LIMITED',
    });
  });

  it('says the server could not be reached when no answer came back', () => {
    expect(toDisplayError(unreachable())).toEqual({
      message: 'The server could not be reached. Check your connection.',
      summary: 'unreachable',
      fields: {},
    });
  });

  it('has no reason key when the server gave none', () => {
    expect(toDisplayError(serverError({ message: 'Not found', httpStatus: 404 }))).not.toHaveProperty(
      'reason',
    );
  });
});

describe('toDisplayError with wallet and other errors', () => {
  const named = (name: string, extra: Record<string, unknown> = {}) =>
    Object.assign(new Error('details for developers'), { name, ...extra });

  it('explains what happened in the wallet', () => {
    expect(toDisplayError(named('UserRejectedRequestError')).message).toBe(
      'You declined the request in your wallet.',
    );
    expect(toDisplayError(named('Error', { code: 4001 })).message).toBe(
      'You declined the request in your wallet.',
    );
    expect(toDisplayError(named('ProviderNotFoundError')).message).toMatch(/^No browser wallet was found/);
    expect(toDisplayError(named('ConnectorAlreadyConnectedError')).message).toBe(
      'Your wallet is already connected.',
    );
  });

  it('prefers viem’s short message, then the error’s own, but never JSON', () => {
    expect(
      toDisplayError(named('ContractFunctionExecutionError', { shortMessage: 'Execution reverted.' }))
        .message,
    ).toBe('Execution reverted.');
    expect(toDisplayError(new Error('Upload cancelled')).message).toBe('Upload cancelled');
    expect(toDisplayError(new Error('{"error":"x"}')).message).toBe('Something went wrong.');
  });

  it('handles values that are not errors', () => {
    for (const value of ['boom', 42, null, undefined, { message: 'x' }])
      expect(toDisplayError(value)).toEqual({
        message: 'Something went wrong.',
        summary: 'wentWrong',
        fields: {},
      });
  });
});
