import { describe, expect, it } from 'vitest';
import { formatBytes, shortCid } from './format';
import { fileUrl } from './pins';

describe('formatBytes', () => {
  it('shows bytes below 1000 as they are', () => {
    expect([0, 1, 999].map(formatBytes)).toEqual(['0 B', '1 B', '999 B']);
  });

  it('uses decimal units with one decimal below 10 and none from 10', () => {
    expect(formatBytes(1000)).toBe('1.0 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(10_000)).toBe('10 KB');
    expect(formatBytes(1_500_000)).toBe('1.5 MB');
    expect(formatBytes(104_857_600)).toBe('105 MB');
    expect(formatBytes(2_000_000_000)).toBe('2.0 GB');
  });

  it('stops at terabytes', () => {
    expect(formatBytes(1e12)).toBe('1.0 TB');
    expect(formatBytes(5e15)).toBe('5000 TB');
  });

  it('shows a dash for what is not a size', () => {
    expect([-1, Number.NaN, Number.POSITIVE_INFINITY].map(formatBytes)).toEqual(['—', '—', '—']);
  });
});

describe('shortCid', () => {
  it('keeps CIDs of up to 20 characters and shortens longer ones to head…tail', () => {
    expect(shortCid('bafy12345678901234ab')).toBe('bafy12345678901234ab');
    expect(shortCid('bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq')).toBe('bafkreibm6…hc4yeq');
  });
});

describe('fileUrl', () => {
  it('puts the CID, escaped, under /ipfs/file of the API', () => {
    expect(fileUrl('https://api.example.org', 'bafy/../x?y')).toBe(
      'https://api.example.org/ipfs/file/bafy%2F..%2Fx%3Fy',
    );
  });
});
