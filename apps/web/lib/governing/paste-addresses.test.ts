import { describe, expect, it } from 'vitest';
import { pastedAddresses } from './paste-addresses';

describe('pastedAddresses', () => {
  it('splits lines, commas, semicolons and spaces, and drops blanks', () => {
    expect(pastedAddresses(' 0xa\n\n0xb, 0xc;0xd\t0xe ,\r\n')).toEqual(['0xa', '0xb', '0xc', '0xd', '0xe']);
  });
  it('keeps repeats and bad entries for the server to report', () => {
    expect(pastedAddresses('0xa\n0xa\nnope')).toEqual(['0xa', '0xa', 'nope']);
  });
  it('is empty for blank text', () => {
    expect(pastedAddresses(' \n , ')).toEqual([]);
  });
});
