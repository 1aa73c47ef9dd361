import { afterEach, describe, expect, it, vi } from 'vitest';
import { directoryUploadsSupported, folderNameOf, pickedFromInput } from './folder';
import { gatewayUrl, type MyPin, mayBeJson } from './pins';
import { shareLinkOf, visibilityOf } from './share';
import { usedPercent } from './usage';

afterEach(() => {
  vi.unstubAllGlobals();
});

const pin = (over: Partial<MyPin> = {}): MyPin => ({
  id: '00000000-0000-4000-8000-000000000000',
  cid: 'bafkreibm6jg3ux5qumhcn2b3flc3tyu6dmlb4xa7u5bf44yegnrjhc4yeq',
  owner: '0x0000000000000000000000000000000000000001',
  timestamp: 0,
  status: 'pinned',
  verifiedAt: null,
  failureReason: null,
  name: null,
  metadata: {},
  meta: null,
  visibility: 'public',
  daoId: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  ...over,
});

describe('links', () => {
  it('puts a CID under a gateway’s /ipfs/, with or without a trailing slash', () => {
    expect(gatewayUrl('https://ipfs.io/', 'bafy1')).toBe('https://ipfs.io/ipfs/bafy1');
    expect(gatewayUrl('https://dweb.link', 'bafy1')).toBe('https://dweb.link/ipfs/bafy1');
  });

  it('shares a public file by the API’s file path without asking the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const p = pin();
    expect(visibilityOf(p)).toBe('public');
    expect(await shareLinkOf(p, { apiUrl: 'https://api.example.org', token: 't' })).toEqual({
      url: `https://api.example.org/ipfs/file/${p.cid}`,
      expiresAt: null,
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks POST /ipfs/links for a non-public file, with the token, for one day', async () => {
    const fetchMock = vi.fn(
      async () => new Response('{"url":"https://api.example.org/s/x","expiresAt":"2026-11-02T00:00:00Z"}'),
    );
    vi.stubGlobal('fetch', fetchMock);
    const p = { ...pin(), visibility: 'private' } as MyPin;
    expect((await shareLinkOf(p, { apiUrl: 'https://api.example.org', token: 't' })).url).toBe(
      'https://api.example.org/s/x',
    );
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://api.example.org/ipfs/links');
    expect(JSON.parse(String(init.body))).toEqual({ cid: p.cid, expiresIn: 86_400 });
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer t');
  });
});

describe('mayBeJson', () => {
  it('offers the metadata reader for text and for files of unknown type, not for images', () => {
    expect(mayBeJson(pin())).toBe(true);
    expect(mayBeJson(pin({ metadata: { mimetype: 'text/plain' } }))).toBe(true);
    expect(mayBeJson(pin({ metadata: { mimetype: 'image/png' } }))).toBe(false);
    expect(mayBeJson(pin({ metadata: { mimetype: 'application/pdf' } }))).toBe(false);
  });
});

describe('usedPercent', () => {
  it('rounds down, stops at 100, and is null without a limit', () => {
    expect(usedPercent({ usedBytes: 999, limitBytes: 1000 })).toBe(99);
    expect(usedPercent({ usedBytes: 2000, limitBytes: 1000 })).toBe(100);
    expect(usedPercent({ usedBytes: 5, limitBytes: 0 })).toBeNull();
    expect(usedPercent({ usedBytes: 5, limitBytes: null })).toBeNull();
  });
});

describe('folders', () => {
  const file = (name: string, path = '') =>
    Object.defineProperty(new File(['x'], name), 'webkitRelativePath', { value: path });

  it('keeps each file’s path inside a chosen folder and names the folder', () => {
    const picked = pickedFromInput([file('a.txt', 'photos/a.txt'), file('b.png', 'photos/2026/b.png')]);
    expect(picked.map((p) => p.path)).toEqual(['photos/a.txt', 'photos/2026/b.png']);
    expect(folderNameOf(picked)).toBe('photos');
    expect(folderNameOf(pickedFromInput([file('a.txt')]))).toBeNull();
  });

  it('sends a folder as one upload only to a server that says it takes folders', () => {
    expect(directoryUploadsSupported(undefined)).toBe(false);
    expect(directoryUploadsSupported({ maxFileSize: 1 })).toBe(false);
    expect(directoryUploadsSupported({ directoryUploads: true })).toBe(true);
  });
});
