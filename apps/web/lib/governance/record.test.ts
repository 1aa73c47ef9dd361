import { describe, expect, it } from 'vitest';
import { receiptDataUrl, receiptFilename, recordCarFilename, recordCarUrl, verifyCommand } from './record';

const id = '3f1c2a4e-9b7d-4c1e-8a2b-0d9e8f7a6b5c';

describe('the record links', () => {
  it('puts the CAR under the API root and names the file as the API does', () => {
    expect(recordCarUrl('http://api.example:4000', id)).toBe(
      `http://api.example:4000/proposals/${id}/record.car`,
    );
    expect(recordCarFilename(id)).toBe(`proposal-${id}-record.car`);
  });

  it('gives the verifier the downloaded file and the key', () => {
    expect(verifyCommand(id, 'ab'.repeat(32))).toBe(
      `npm run verify -- proposal-${id}-record.car --key ${'ab'.repeat(32)}`,
    );
  });

  it('saves a receipt as the JSON the API answered', () => {
    const receipt = { voteId: id, leaf: 'bafy', proof: [{ side: 'l', cid: 'bafz' }] };
    const url = receiptDataUrl(receipt);
    expect(url.startsWith('data:application/json;charset=utf-8,')).toBe(true);
    expect(JSON.parse(decodeURIComponent(url.slice(url.indexOf(',') + 1)))).toEqual(receipt);
    expect(receiptFilename(id)).toBe(`receipt-${id}.json`);
  });
});
