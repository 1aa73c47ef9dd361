import { describe, expect, it } from 'vitest';
import { cidInput, cidString, psaListQuery, psaPin } from './storage';
import { accepts, issuesOf, parsed } from './test-helpers';

const CID = 'bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq';
const CID_V0 = 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG';
const query = (q: Record<string, string>) => parsed(psaListQuery, q);

describe('CIDs', () => {
  it('are trimmed strings of 1 to 200 characters (parsing them is core’s job)', () => {
    expect(parsed(cidString, ` ${CID}\n`)).toBe(CID);
    expect(accepts(cidString, CID_V0)).toBe(true);
    expect(accepts(cidString, '   ')).toBe(false);
    expect(accepts(cidString, 'b'.repeat(200))).toBe(true);
    expect(accepts(cidString, 'b'.repeat(201))).toBe(false);
  });

  it('come alone in cidInput', () => {
    expect(accepts(cidInput, { cid: CID, owner: '0x' })).toBe(false);
  });
});

describe('Pinning Service GET /pins query', () => {
  it('defaults the limit to 10 and takes 1 to 1000 from the query string', () => {
    expect(query({})).toEqual({ limit: 10 });
    expect(query({ limit: '1000' }).limit).toBe(1000);
    for (const limit of ['0', '1001', '2.5', 'ten']) expect(accepts(psaListQuery, { limit })).toBe(false);
  });

  it('splits comma-separated CIDs, trimming and dropping empty parts, at most 10', () => {
    expect(query({ cid: `${CID}, ${CID_V0},,` }).cid).toEqual([CID, CID_V0]);
    expect(accepts(psaListQuery, { cid: Array(10).fill(CID).join(',') })).toBe(true);
    expect(accepts(psaListQuery, { cid: Array(11).fill(CID).join(',') })).toBe(false);
    expect(issuesOf(psaListQuery, { cid: ' , ,' })).toHaveLength(1);
  });

  it('splits statuses and knows only the four of the spec', () => {
    expect(query({ status: 'queued,pinned' }).status).toEqual(['queued', 'pinned']);
    expect(accepts(psaListQuery, { status: 'queued,pinning,pinned,failed' })).toBe(true);
    expect(accepts(psaListQuery, { status: 'pinned,unknown' })).toBe(false);
    expect(accepts(psaListQuery, { status: 'queued,pinning,pinned,failed,queued' })).toBe(false);
  });

  it('parses meta as a JSON object of strings', () => {
    expect(query({ meta: '{"app":"plenum"}' }).meta).toEqual({ app: 'plenum' });
    expect(issuesOf(psaListQuery, { meta: '{app}' })).toEqual(['meta: must be a JSON object']);
    expect(accepts(psaListQuery, { meta: '{"n":1}' })).toBe(false);
    expect(accepts(psaListQuery, { meta: '["a"]' })).toBe(false);
  });

  it('takes the match modes and timestamps with an offset, and no other keys', () => {
    expect(query({ name: 'x', match: 'ipartial', before: '2030-01-01T00:00:00Z' })).toMatchObject({
      match: 'ipartial',
      before: '2030-01-01T00:00:00Z',
    });
    expect(accepts(psaListQuery, { match: 'regex' })).toBe(false);
    expect(accepts(psaListQuery, { after: '2030-01-01' })).toBe(false);
    expect(accepts(psaListQuery, { offset: '5' })).toBe(false);
  });
});

describe('Pinning Service pin body', () => {
  it('bounds meta at 100 entries with keys of 1 to 255 characters, and origins at 20', () => {
    const meta = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
    expect(accepts(psaPin, { cid: CID, meta: meta(100) })).toBe(true);
    expect(issuesOf(psaPin, { cid: CID, meta: meta(101) })).toEqual(['meta: at most 100 entries']);
    expect(accepts(psaPin, { cid: CID, meta: { '': 'v' } })).toBe(false);
    expect(accepts(psaPin, { cid: CID, origins: Array(20).fill('/dns4/x/tcp/4001') })).toBe(true);
    expect(accepts(psaPin, { cid: CID, origins: Array(21).fill('/dns4/x/tcp/4001') })).toBe(false);
  });
});
