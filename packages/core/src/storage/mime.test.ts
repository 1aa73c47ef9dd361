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
    // the variants an attacker tries: a doctype first, no space before the attributes, a namespace prefix
    for (const svg of [
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x"><svg xmlns="http://www.w3.org/2000/svg"></svg>',
      '<svg/onload=alert(1)>',
      '<x:svg xmlns:x="http://www.w3.org/2000/svg"/>',
      '\uFEFF  <SVG>',
    ])
      expect((await detectType(bytes(svg))).mime, svg).toBe('image/svg+xml');
    // other markup is not plain text either
    for (const xml of [
      '<note><to>Tove</to></note>',
      '<!DOCTYPE note SYSTEM "Note.dtd"><note/>',
      '<rss version="2.0">',
    ])
      expect((await detectType(bytes(xml))).mime, xml).toBe('application/xml');
    // but text that merely contains or starts with a less-than sign is text
    for (const text of ['< 5 apples', '<3 you', 'a <svg> in a sentence', '<<EOF'])
      expect((await detectType(bytes(text))).mime, text).toBe('text/plain');
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

  const validate = (data: Uint8Array, cuts: number[]) => {
    const v = new Utf8Validator();
    let from = 0;
    for (const cut of [...cuts, data.length]) {
      v.push(data.subarray(from, cut));
      from = cut;
    }
    return v.end();
  };

  it('agrees with a strict decoder wherever the stream is cut', () => {
    const text = bytes('aé€𝄞 text\tline\r\n'.repeat(3));
    for (let a = 0; a <= text.length; a++) {
      expect(validate(text, [a])).toBe(true);
      for (let b = a; b <= text.length; b += 3) expect(validate(text, [a, b])).toBe(true);
    }
    // one byte at a time
    expect(
      validate(
        text,
        Array.from({ length: text.length }, (_, i) => i),
      ),
    ).toBe(true);
    const invalid = [
      [0xc3, 0x28], // bad continuation
      [0xc0, 0xaf], // overlong
      [0xed, 0xa0, 0x80], // surrogate
      [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
      [0x80], // lone continuation
      [0xe2, 0x82], // truncated at the end
    ];
    for (const seq of invalid) {
      const data = Uint8Array.from([
        ...bytes('ok '),
        ...seq,
        ...(seq.length === 2 && seq[0] === 0xe2 ? [] : bytes(' ok')),
      ]);
      for (let a = 0; a <= data.length; a++) expect(validate(data, [a]), `${seq} cut at ${a}`).toBe(false);
    }
  });

  it('finds a binary control byte anywhere in a large unaligned chunk', () => {
    const big = Buffer.alloc(4099, 0x61);
    for (const at of [0, 1, 2, 3, 17, 2048, 4094, 4095, 4096, 4098]) {
      for (const ctrl of [0x00, 0x08, 0x0b, 0x1a, 0x1f]) {
        const data = Buffer.from(big);
        data[at] = ctrl;
        const v = new Utf8Validator();
        v.push(data.subarray(1)); // an odd byteOffset, as a slice of a network buffer has
        expect(v.end(), `0x${ctrl.toString(16)} at ${at}`).toBe(at === 0);
      }
    }
    // tab, newline, form feed, carriage return and escape are text
    const ok = Buffer.alloc(4099, 0x61);
    for (const [i, c] of [0x09, 0x0a, 0x0c, 0x0d, 0x1b].entries()) ok[100 + i * 7] = c;
    expect(validate(ok, [5])).toBe(true);
  });
});
