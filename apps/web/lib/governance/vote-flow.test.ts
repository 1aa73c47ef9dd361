import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serverError } from '../test-support/trpc-error';
import { voteFailure, WalletTimeoutError, withTimeout } from './vote-flow';

describe('withTimeout', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('gives the answer that comes in time', async () => {
    const p = withTimeout(new Promise((r) => setTimeout(() => r('signed'), 1_000)), 5_000);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(p).resolves.toBe('signed');
  });

  it('gives up with a WalletTimeoutError when the wallet never answers', async () => {
    const p = withTimeout(new Promise(() => {}), 120_000);
    const caught = p.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(119_999);
    await vi.advanceTimersByTimeAsync(1);
    expect(await caught).toBeInstanceOf(WalletTimeoutError);
  });

  it('passes a failure through unchanged', async () => {
    const err = new Error('boom');
    await expect(withTimeout(Promise.reject(err), 5_000)).rejects.toBe(err);
  });
});

describe('voteFailure', () => {
  it('tells a signature declined in the wallet by its EIP-1193 code or viem’s error name', () => {
    expect(voteFailure(Object.assign(new Error('User rejected'), { code: 4001 }))).toEqual({
      kind: 'rejected',
    });
    const viem = Object.assign(new Error('x'), { name: 'UserRejectedRequestError' });
    expect(voteFailure(viem)).toEqual({ kind: 'rejected' });
    // wagmi wraps the provider's error
    expect(voteFailure(Object.assign(new Error('wrapped'), { cause: { code: 4001 } }))).toEqual({
      kind: 'rejected',
    });
  });

  it('tells a wait that ran out, in seconds', () => {
    expect(voteFailure(new WalletTimeoutError(120_000))).toEqual({ kind: 'timeout', seconds: 120 });
  });

  it('tells a vote the server refused, with its reason as a sentence', () => {
    const f = voteFailure(serverError({ httpStatus: 409, reason: 'ALREADY_VOTED', message: 'x' }));
    expect(f.kind).toBe('refused');
    expect(f.kind === 'refused' && f.error.message).toContain('has already voted');
  });

  it('keeps anything else as a plain failure', () => {
    expect(voteFailure(new Error('No browser wallet was found.'))).toEqual({
      kind: 'other',
      error: { message: 'No browser wallet was found.', fields: {} },
    });
  });
});
