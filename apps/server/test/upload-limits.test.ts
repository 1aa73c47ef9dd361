import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { memberUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';
import { uploadBytes } from './support/storage';

let t: TestApp;
let api: ApiClient;

beforeAll(async () => {
  t = await startTestApp({
    env: {
      MAX_FILE_SIZE: '2000',
      ALLOWED_FILE_TYPES: 'image/png,text/plain',
      MAX_AVATAR_SIZE: '3000',
      ALLOWED_IMAGE_TYPES: 'jpg,png',
      // named to the files page for public links; nothing here reads through it
      IPFS_GATEWAY_URLS: 'https://gateway.example.org,https://second.example.org',
    },
  });
  api = apiClient(t.url);
});
afterAll(() => t?.close());

const info = async () => {
  const res = await fetch(`${t.url}/trpc/system.info`);
  expect(res.status).toBe(200);
  return (await res.json()).result.data as {
    uploads: {
      maxFileSize: number;
      allowedFileTypes: string[];
      maxAvatarSize: number;
      avatarTypes: string[];
      directoryUploads: boolean;
    };
    ipfsGateway: string | null;
  };
};

describe('system.info uploads', () => {
  it('tells anyone the configured upload limits, avatar types as MIME types', async () => {
    expect((await info()).uploads).toEqual({
      maxFileSize: 2000,
      allowedFileTypes: ['image/png', 'text/plain'],
      maxAvatarSize: 3000,
      avatarTypes: ['image/jpeg', 'image/png'],
      // POST /ipfs/upload takes a folder as one upload (the files page sends it so)
      directoryUploads: true,
    });
  });

  it('names the first IPFS gateway for public links to a CID', async () => {
    expect((await info()).ipfsGateway).toBe('https://gateway.example.org');
  });

  it('are the limits the upload route enforces: the maximum passes, one byte more is refused', async () => {
    const { maxFileSize } = (await info()).uploads;
    const user = await memberUser(api);
    const ok = await uploadBytes(api, user.token, 'a'.repeat(maxFileSize), 'max.txt');
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const over = await uploadBytes(api, user.token, 'b'.repeat(maxFileSize + 1), 'over.txt');
    expect(over.status).toBe(413);
  });
});
