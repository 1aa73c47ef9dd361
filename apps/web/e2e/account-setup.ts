import { deflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { newUser, registerByApi, type TestUser, verificationLinkFor } from './flows';

/** Users set up through the REST API, for browser tests whose subject is a page, not identity. */
export interface ApiUser extends TestUser {
  id: string;
  token: string;
}

async function json(res: Response, expected: number, what: string) {
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

export async function loginByApi(apiUrl: string, user: TestUser) {
  const res = await fetch(`${apiUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const body = await json(res, 200, 'login');
  return { token: body.token as string, id: body.user.id as string };
}

/** registered, email verified (through the development outbox's link) and signed in */
export async function activeUserByApi(apiUrl: string, tag: string, user = newUser(tag)): Promise<ApiUser> {
  await registerByApi(apiUrl, user);
  const token = new URL(await verificationLinkFor(apiUrl, user.email)).searchParams.get('token');
  await json(
    await fetch(`${apiUrl}/users/verify-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    }),
    200,
    'verify email',
  );
  return { ...user, ...(await loginByApi(apiUrl, user)) };
}

/** links a fresh wallet by a real EIP-4361 signature bound to the web app's origin */
/** Links a new wallet (or the one of `privateKey`, for pages that must look the same on every run). */
export async function linkWalletByApi(
  apiUrl: string,
  webUrl: string,
  user: ApiUser,
  privateKey: `0x${string}` = generatePrivateKey(),
) {
  const account = privateKeyToAccount(privateKey);
  const { nonce } = await json(await fetch(`${apiUrl}/auth/nonce`), 200, 'nonce');
  const message = createSiweMessage({
    address: account.address,
    chainId: 1,
    domain: new URL(webUrl).host,
    nonce,
    uri: webUrl,
    version: '1',
    issuedAt: new Date(),
  });
  await json(
    await fetch(`${apiUrl}/auth/wallets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ message, signature: await account.signMessage({ message }) }),
    }),
    201,
    'link wallet',
  );
  return account;
}

/** a page signed in as `user` by storing the session token the way the sign-in page does */
export async function signedInPage(
  product: { browser: import('@playwright/test').Browser; webUrl: string },
  user: ApiUser,
  path: string,
): Promise<Page> {
  const page = await product.browser.newPage();
  await page.goto(`${product.webUrl}/`);
  await page.evaluate((t) => window.localStorage.setItem('plenum.session', t), user.token);
  await page.goto(`${product.webUrl}${path}`);
  return page;
}

export async function apiGet(apiUrl: string, path: string, token?: string) {
  const res = await fetch(`${apiUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body: body as Record<string, unknown>, headers: res.headers };
}

/** a real 8×8 PNG, its colour chosen by `seed`, so tests can make distinct files (distinct CIDs) */
export function pngBytes(seed = 0): Buffer {
  const size = 8;
  const raw = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) raw.set([(seed * 37) % 256, 120, 200], row + 1 + x * 3);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
