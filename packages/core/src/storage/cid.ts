import type { MultibaseDecoder } from 'multiformats/bases/interface';
import { bases } from 'multiformats/basics';
import { CID } from 'multiformats/cid';
import { badRequest } from '../shared/errors';

const decoder = Object.values(bases)
  .map((b) => b.decoder as MultibaseDecoder<string>)
  .reduce((a, b) => (a as unknown as { or(d: MultibaseDecoder<string>): MultibaseDecoder<string> }).or(b));

export interface ParsedCid {
  cid: CID;
  /** canonical form: CIDv1 in base32 */
  text: string;
  /** a path below the CID from `ipfs://cid/path` or `/ipfs/cid/path`, without leading slash */
  path: string;
}

/**
 * Accepts a CIDv0 or CIDv1 in any multibase, optionally as `ipfs://cid[/path]` or `/ipfs/cid[/path]`.
 * CIDv0 is upgraded to v1 (dag-pb), so one piece of content has one identifier in our records.
 */
export function parseCidRef(input: string): ParsedCid {
  let s = input.trim();
  if (/^ipfs:\/\//i.test(s)) s = s.slice(7);
  else if (s.startsWith('/ipfs/')) s = s.slice(6);
  const slash = s.indexOf('/');
  const head = slash === -1 ? s : s.slice(0, slash);
  const path = slash === -1 ? '' : s.slice(slash + 1).replace(/\/+$/, '');
  let cid: CID;
  try {
    if (!head || head.length > 200) throw new Error('empty');
    cid = head.startsWith('Qm') ? CID.parse(head) : CID.parse(head, decoder);
  } catch {
    throw badRequest(
      `"${input.slice(0, 120)}" is not a valid CID`,
      [{ path: 'cid', message: 'invalid CID' }],
      'INVALID_CID',
    );
  }
  const v1 = cid.version === 0 ? cid.toV1() : cid;
  return { cid: v1 as CID, text: v1.toString(), path };
}

export function parseCid(input: string): { cid: CID; text: string } {
  const parsed = parseCidRef(input);
  if (parsed.path) throw badRequest('A bare CID is expected here, without a path', undefined, 'INVALID_CID');
  return parsed;
}

/** true when the string parses as a CID (bare or ipfs://), without throwing */
export function looksLikeCid(input: string): boolean {
  try {
    parseCidRef(input);
    return true;
  } catch {
    return false;
  }
}
