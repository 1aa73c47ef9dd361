import { crc32, deflateSync } from 'node:zlib';

/** Minimal but complete, decodable images built byte by byte (no image library needed). */

function pngChunk(type: string, data: Buffer) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** a 1×1 RGB PNG of the given colour */
export function tinyPng(rgb: [number, number, number] = [51, 102, 204]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0); // width
  ihdr.writeUInt32BE(1, 4); // height
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.from([0, ...rgb]))), // filter byte 0, one pixel
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** a 1×1 GIF89a (the classic single-pixel GIF) */
export function tinyGif(): Buffer {
  return Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
}

/**
 * An 8×8 mid-grey baseline JPEG: one quantisation table of ones, one-symbol Huffman tables, and a
 * single block whose DC difference is 0 and whose AC part is an immediate end-of-block.
 */
export function tinyJpeg(): Buffer {
  const seg = (marker: number, body: number[]) => [
    0xff,
    marker,
    (body.length + 2) >> 8,
    (body.length + 2) & 0xff,
    ...body,
  ];
  const oneCodeTable = (tc: number) => [tc, 1, ...new Array(15).fill(0), 0x00];
  return Buffer.from([
    0xff,
    0xd8, // SOI
    ...seg(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // JFIF 1.1
    ...seg(0xdb, [0x00, ...new Array(64).fill(1)]), // DQT
    ...seg(0xc0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]), // SOF0: 8-bit, 8×8, one component
    ...seg(0xc4, oneCodeTable(0x00)), // DHT DC 0
    ...seg(0xc4, oneCodeTable(0x10)), // DHT AC 0
    ...seg(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
    0x3f, // DC code "0", EOB code "0", padded with ones
    0xff,
    0xd9, // EOI
  ]);
}

export const HTML_AS_PNG = Buffer.from(
  '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
);
export const SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script><rect width="1" height="1"/></svg>',
);
