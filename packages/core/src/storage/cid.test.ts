import { base36 } from 'multiformats/bases/base36';
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors';
import { looksLikeCid, parseCid, parseCidRef } from './cid';

const V0 = 'QmdfTbBqBPQ7VNxZEYEj14VmRuZBkqFbiwReogJgS1zR1n';
const V1 = 'bafybeihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku';

describe('parseCid', () => {
  it('upgrades CIDv0 to CIDv1 base32', () => {
    const { text, cid } = parseCid(V0);
    expect(cid.version).toBe(1);
    expect(text).toBe(V1);
  });

  it('accepts other multibases and returns base32', () => {
    const asBase36 = parseCid(V1).cid.toString(base36);
    expect(asBase36.startsWith('k')).toBe(true);
    expect(parseCid(asBase36).text).toBe(V1);
  });

  it('reads ipfs:// and /ipfs/ references with a path', () => {
    expect(parseCidRef(`ipfs://${V0}/img/a.png`)).toMatchObject({ text: V1, path: 'img/a.png' });
    expect(parseCidRef(`/ipfs/${V1}`)).toMatchObject({ text: V1, path: '' });
  });

  it('rejects garbage with a 400 INVALID_CID', () => {
    for (const bad of ['', 'hello', 'Qm123', `${V1}x`, 'ipfs://']) {
      try {
        parseCid(bad);
        expect.unreachable(bad);
      } catch (err) {
        expect(err).toBeInstanceOf(AppError);
        expect((err as AppError).code).toBe('BAD_REQUEST');
        expect((err as AppError).reason).toBe('INVALID_CID');
      }
    }
    expect(looksLikeCid('https://example.org/a.png')).toBe(false);
  });
});
