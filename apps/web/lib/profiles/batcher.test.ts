import { describe, expect, it, vi } from 'vitest';
import { type AddressProfile, createProfileBatcher } from './batcher';

const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const profile = (address: string): AddressProfile => ({
  address,
  userId: '00000000-0000-4000-8000-000000000001',
  displayName: `Person ${address.slice(-3)}`,
  avatarUrl: null,
});

describe('createProfileBatcher', () => {
  it('looks up every address asked in one turn with one request, each once, ignoring case', async () => {
    const fetcher = vi.fn(async (addresses: string[]) =>
      addresses.filter((_, i) => i % 2 === 0).map(profile),
    );
    const b = createProfileBatcher(fetcher);
    const a = addr(0xabc);
    const results = await Promise.all([
      b.load(a),
      b.load(a.toUpperCase().replace('0X', '0x')),
      b.load(addr(2)),
    ]);
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher.mock.calls[0]![0]).toEqual([a, addr(2)]);
    expect(results.map((r) => r?.displayName ?? null)).toEqual(['Person abc', 'Person abc', null]);
    // a later turn is a new request
    await b.load(addr(3));
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('splits more addresses than the limit into several requests', async () => {
    const fetcher = vi.fn(async (addresses: string[]) => addresses.map(profile));
    const b = createProfileBatcher(fetcher, 100);
    const all = await Promise.all(Array.from({ length: 250 }, (_, i) => b.load(addr(i + 1))));
    expect(fetcher.mock.calls.map((c) => c[0].length)).toEqual([100, 100, 50]);
    expect(all.every((p) => p !== null)).toBe(true);
  });

  it('rejects the addresses of a failed request, and never asks for something that is not an address', async () => {
    const fetcher = vi.fn(async () => {
      throw new Error('down');
    });
    const b = createProfileBatcher(fetcher);
    await expect(b.load(addr(7))).rejects.toThrow('down');
    expect(await b.load('not an address')).toBeNull();
    expect(fetcher).toHaveBeenCalledTimes(1);
  });
});
