import { describe, expect, it } from 'vitest';
import { formatSize, kindOf, refusal, refusedType } from './limits';

const MB = 1024 * 1024;
const limits = {
  maxFileSize: 100 * MB,
  allowedFileTypes: ['image/jpeg', 'image/png', 'application/pdf', 'text/plain'],
};

describe('formatSize', () => {
  it('names sizes as file managers do, in the page’s language', () => {
    expect(formatSize(115 * MB)).toBe('115 MB');
    expect(formatSize(100 * MB)).toBe('100 MB');
    expect(formatSize(1.2 * MB)).toBe('1.2 MB');
    expect(formatSize(1.2 * MB, 'de')).toBe('1,2 MB');
    expect(formatSize(5 * MB, 'de')).toBe('5 MB');
    expect(formatSize(1536)).toBe('1.5 kB');
    expect(formatSize(512)).toBe('512 bytes');
    expect(formatSize(-1)).toBe('—');
  });
});

describe('refusal', () => {
  it('refuses a file over the limit, whatever its type', () => {
    expect(refusal({ size: 115 * MB, type: 'image/png' }, limits)).toEqual({
      reason: 'tooLarge',
      size: 115 * MB,
      max: 100 * MB,
    });
    expect(refusal({ size: 100 * MB, type: 'image/png' }, limits)).toBeNull();
  });

  it('refuses only types the server would certainly refuse', () => {
    expect(refusal({ size: 10, type: 'video/mp4' }, limits)).toEqual({ reason: 'type', kind: 'video' });
    expect(refusal({ size: 10, type: 'text/html' }, limits)).toEqual({ reason: 'type', kind: 'html' });
    expect(refusal({ size: 10, type: 'image/svg+xml' }, limits)).toEqual({ reason: 'type', kind: 'svg' });
    // unknown, or text the server reads as plain text: the server decides from the bytes
    for (const type of ['', 'application/json', 'text/csv', 'text/markdown', 'IMAGE/PNG'])
      expect(refusal({ size: 10, type }, limits), type).toBeNull();
    expect(refusal({ size: 10, type: 'text/csv' }, { ...limits, allowedFileTypes: ['image/png'] })).toEqual({
      reason: 'type',
      kind: 'text',
    });
  });
});

describe('kindOf and refusedType', () => {
  it('names types in words and reads the type out of the server’s refusal', () => {
    expect(kindOf('Text/Plain; charset=utf-8')).toBe('text');
    expect(kindOf('image/heic')).toBe('image');
    expect(kindOf('application/x-tar')).toBe('other');
    expect(refusedType('Files of type text/html are not allowed')).toBe('text/html');
    expect(refusedType('The file is empty')).toBeNull();
  });
});
