import { createHash } from 'node:crypto';

/**
 * A small CARv1 reader written from the specifications (CARv1, CID, multihash, DAG-CBOR header, dag-pb,
 * UnixFS), independent of the libraries that wrote the file: it parses the header's roots and every
 * block, checks each block against its CID's sha2-256 digest, and reassembles UnixFS files.
 */

export interface CarBlock {
  /** CIDv1 in base32 (the string Plenum's API uses) */
  cid: string;
  codec: number;
  bytes: Uint8Array;
}

export interface Car {
  version: number;
  roots: string[];
  blocks: Map<string, CarBlock>;
  /** blocks in file order, duplicates included */
  order: string[];
}

const DAG_PB = 0x70;
const RAW = 0x55;
const SHA2_256 = 0x12;
const IDENTITY = 0x00;

function varint(buf: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let shift = 0;
  for (let i = at; i < buf.length; i++) {
    const b = buf[i]!;
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return [value, i + 1];
    shift += 7;
  }
  throw new Error(`truncated varint at ${at}`);
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let acc = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(acc << (5 - bits)) & 31];
  return out;
}

interface ParsedCid {
  text: string;
  codec: number;
  hashCode: number;
  digest: Uint8Array;
  end: number;
}

/** a CIDv1 at `at` (CIDv0 is not produced by Plenum's uploads and is refused here) */
function parseCid(buf: Uint8Array, at: number): ParsedCid {
  if (buf[at] === 0x12 && buf[at + 1] === 0x20) throw new Error('CIDv0 in the CAR: not expected');
  const [version, a] = varint(buf, at);
  if (version !== 1) throw new Error(`CID version ${version}`);
  const [codec, b] = varint(buf, a);
  const [hashCode, c] = varint(buf, b);
  const [length, d] = varint(buf, c);
  const end = d + length;
  return { text: `b${base32(buf.subarray(at, end))}`, codec, hashCode, digest: buf.subarray(d, end), end };
}

/** the subset of CBOR a CARv1 header uses: maps, arrays, text, bytes, unsigned ints, tag 42 (CID) */
function cbor(buf: Uint8Array, at: number): [unknown, number] {
  const major = buf[at]! >> 5;
  const info = buf[at]! & 31;
  let n: number;
  let next: number;
  if (info < 24) [n, next] = [info, at + 1];
  else if (info === 24) [n, next] = [buf[at + 1]!, at + 2];
  else if (info === 25) [n, next] = [(buf[at + 1]! << 8) | buf[at + 2]!, at + 3];
  else if (info === 26)
    [n, next] = [new DataView(buf.buffer, buf.byteOffset + at + 1, 4).getUint32(0), at + 5];
  else throw new Error(`CBOR item 0x${buf[at]!.toString(16)} not expected in a CAR header`);
  switch (major) {
    case 0:
      return [n, next];
    case 2:
      return [buf.subarray(next, next + n), next + n];
    case 3:
      return [new TextDecoder().decode(buf.subarray(next, next + n)), next + n];
    case 4: {
      const items: unknown[] = [];
      for (let i = 0; i < n; i++) {
        const [v, after] = cbor(buf, next);
        items.push(v);
        next = after;
      }
      return [items, next];
    }
    case 5: {
      const map: Record<string, unknown> = {};
      for (let i = 0; i < n; i++) {
        const [k, afterKey] = cbor(buf, next);
        const [v, afterValue] = cbor(buf, afterKey);
        map[String(k)] = v;
        next = afterValue;
      }
      return [map, next];
    }
    case 6: {
      if (n !== 42) throw new Error(`CBOR tag ${n} in a CAR header`);
      const [bytes, after] = cbor(buf, next);
      // a DAG-CBOR CID: byte string with a leading 0x00 (the identity multibase prefix)
      const b = bytes as Uint8Array;
      if (b[0] !== 0) throw new Error('tag 42 without its 0x00 prefix');
      return [{ cid: parseCid(b, 1).text }, after];
    }
    default:
      throw new Error(`CBOR major type ${major} in a CAR header`);
  }
}

/** Parses a whole CARv1 and checks every block against its CID. */
export function readCar(file: Uint8Array): Car {
  const [headerLength, h] = varint(file, 0);
  const [header, end] = cbor(file, h);
  if (end !== h + headerLength) throw new Error('header length does not match its CBOR');
  const { version, roots } = header as { version: number; roots: { cid: string }[] };
  const car: Car = { version, roots: roots.map((r) => r.cid), blocks: new Map(), order: [] };
  let at = end;
  while (at < file.length) {
    const [length, start] = varint(file, at);
    const cid = parseCid(file, start);
    const bytes = file.subarray(cid.end, start + length);
    if (cid.hashCode === SHA2_256) {
      const digest = createHash('sha256').update(bytes).digest();
      if (!digest.equals(cid.digest)) throw new Error(`block ${cid.text} does not match its sha2-256 digest`);
    } else if (cid.hashCode === IDENTITY) {
      if (!Buffer.from(bytes).equals(cid.digest)) throw new Error(`identity block ${cid.text} differs`);
    } else throw new Error(`multihash 0x${cid.hashCode.toString(16)} not expected`);
    car.blocks.set(cid.text, { cid: cid.text, codec: cid.codec, bytes });
    car.order.push(cid.text);
    at = start + length;
  }
  return car;
}

/** protobuf fields (length-delimited and varint) of one message, in order */
function protobuf(buf: Uint8Array): { field: number; bytes?: Uint8Array; value?: number }[] {
  const fields: { field: number; bytes?: Uint8Array; value?: number }[] = [];
  let at = 0;
  while (at < buf.length) {
    const [tag, next] = varint(buf, at);
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (wire === 2) {
      const [length, start] = varint(buf, next);
      fields.push({ field, bytes: buf.subarray(start, start + length) });
      at = start + length;
    } else if (wire === 0) {
      const [value, after] = varint(buf, next);
      fields.push({ field, value });
      at = after;
    } else throw new Error(`protobuf wire type ${wire}`);
  }
  return fields;
}

/** The bytes of the UnixFS file rooted at cid, from the CAR's blocks alone. */
export function catFile(car: Car, cid: string): Buffer {
  const block = car.blocks.get(cid);
  if (!block) throw new Error(`block ${cid} is not in the CAR`);
  if (block.codec === RAW) return Buffer.from(block.bytes);
  if (block.codec !== DAG_PB) throw new Error(`codec 0x${block.codec.toString(16)} is not a UnixFS file`);
  const node = protobuf(block.bytes);
  const parts: Buffer[] = [];
  // PBNode: Data = 1, Links = 2 (dag-pb puts Links first); UnixFS Data: Type = 1, Data = 2
  const data = node.find((f) => f.field === 1)?.bytes;
  const inline = data ? protobuf(data).find((f) => f.field === 2)?.bytes : undefined;
  if (inline) parts.push(Buffer.from(inline));
  for (const link of node.filter((f) => f.field === 2)) {
    const hash = protobuf(link.bytes!).find((f) => f.field === 1)!.bytes!;
    parts.push(catFile(car, parseCid(hash, 0).text));
  }
  return Buffer.concat(parts);
}
