import { describe, expect, it } from 'vitest';
import { detectType, isActiveContent, Utf8Validator } from './mime';

const bytes = (s: string) => new TextEncoder().encode(s);
const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1,
  8, 6, 0, 0, 0,
]);

describe('detectType', () => {
  it('uses magic numbers', async () => {
    expect(await detectType(PNG)).toEqual({ mime: 'image/png', ext: 'png' });
    expect(await detectType(bytes('%PDF-1.7\n%âãÏÓ\n1 0 obj\n'))).toEqual({
      mime: 'application/pdf',
      ext: 'pdf',
    });
  });

  it('calls UTF-8 without markup text/plain', async () => {
    expect(await detectType(bytes('hello wörld\nline two'))).toEqual({ mime: 'text/plain', ext: 'txt' });
    expect(await detectType(bytes('{"name":"x"}'))).toEqual({ mime: 'text/plain', ext: 'txt' });
    // a multi-byte character cut at the end of the sample is still text
    expect((await detectType(bytes('ab€').subarray(0, 4))).mime).toBe('text/plain');
  });

  it('never calls markup text', async () => {
    expect((await detectType(bytes('  <!DOCTYPE html><html><body>x</body></html>'))).mime).toBe('text/html');
    expect((await detectType(bytes('<script>alert(1)</script>'))).mime).toBe('text/html');
    expect((await detectType(bytes('\uFEFF<p>hi</p>'))).mime).toBe('text/html');
    expect((await detectType(bytes('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).mime).toBe(
      'image/svg+xml',
    );
    expect((await detectType(bytes('<?xml version="1.0"?><svg></svg>'))).mime).toBe('image/svg+xml');
    expect((await detectType(bytes('<?xml version="1.0"?><note/>'))).mime).toBe('application/xml');
  });

  it('calls invalid UTF-8 or control bytes binary', async () => {
    expect((await detectType(Uint8Array.from([0xff, 0xfe, 0x41, 0x00, 0x42]))).mime).toBe(
      'application/octet-stream',
    );
    expect((await detectType(Uint8Array.from([0x41, 0x01, 0x42]))).mime).toBe('application/octet-stream');
  });

  it('marks executable types as active content', () => {
    for (const m of ['text/html', 'image/svg+xml', 'application/xml', 'text/javascript'])
      expect(isActiveContent(m)).toBe(true);
    for (const m of ['text/plain', 'image/png', 'application/pdf']) expect(isActiveContent(m)).toBe(false);
  });
});

describe('Utf8Validator', () => {
  it('accepts characters split across chunks and rejects bad bytes', () => {
    const v = new Utf8Validator();
    const euro = bytes('€');
    v.push(euro.subarray(0, 1));
    v.push(euro.subarray(1));
    expect(v.end()).toBe(true);
    const bad = new Utf8Validator();
    bad.push(bytes('fine'));
    bad.push(Uint8Array.from([0xc3]));
    expect(bad.end()).toBe(false);
  });
});
