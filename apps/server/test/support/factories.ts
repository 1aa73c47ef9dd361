import { randomBytes } from 'node:crypto';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { expect } from 'vitest';
import type { ApiClient } from './http';

export const PASSWORD = 'Correct-Horse-9';

let seq = 0;
export const uniqueEmail = (prefix = 'user') =>
  `${prefix}.${Date.now().toString(36)}.${++seq}.${randomBytes(2).toString('hex')}@example.org`;

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
  wallet?: PrivateKeyAccount;
}

export async function register(api: ApiClient, overrides: Record<string, unknown> = {}) {
  const email = (overrides.email as string) ?? uniqueEmail();
  const res = await api.post('/users', {
    email,
    password: PASSWORD,
    firstName: 'Ada',
    lastName: 'Lovelace',
    acceptedTerms: true,
    ...overrides,
  });
  return res;
}

/** the verification token from the newest development-outbox mail to this address */
export async function verificationTokenFor(api: ApiClient, email: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const res = await api.get('/dev/outbox');
    const mail = (res.body.items as { to: string; text: string }[]).find((m) => m.to === email.toLowerCase());
    const token = mail && /token=([\w-]+)/.exec(mail.text)?.[1];
    if (token) return token;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no verification mail for ${email}`);
}

export async function login(api: ApiClient, email: string, password = PASSWORD): Promise<string> {
  const res = await api.post('/auth/login', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

/** registered, verified (active) and signed in */
export async function activeUser(api: ApiClient, overrides: Record<string, unknown> = {}): Promise<TestUser> {
  const reg = await register(api, overrides);
  expect(reg.status, JSON.stringify(reg.body)).toBe(201);
  const email = reg.body.email as string;
  const token = await verificationTokenFor(api, email);
  const verified = await api.post('/users/verify-email', { token });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  return { id: reg.body.id, email, password: PASSWORD, token: await login(api, email) };
}

export function newWallet(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey());
}

export async function siweMessage(
  api: ApiClient,
  account: PrivateKeyAccount,
  overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {},
) {
  const nonce = (await api.get('/auth/nonce')).body.nonce as string;
  const message = createSiweMessage({
    address: account.address,
    chainId: 1,
    domain: 'localhost:3000',
    nonce,
    uri: 'http://localhost:3000/sign-in',
    version: '1',
    issuedAt: new Date(),
    ...overrides,
  });
  return { message, signature: await account.signMessage({ message }) };
}

/** links a fresh (or given) wallet to the user; returns the wallet */
export async function linkWallet(
  api: ApiClient,
  user: TestUser,
  account = newWallet(),
): Promise<PrivateKeyAccount> {
  const res = await api.post('/auth/wallets', await siweMessage(api, account), { token: user.token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  user.wallet ??= account;
  return account;
}

/** an active user with one linked wallet */
export async function memberUser(
  api: ApiClient,
  overrides: Record<string, unknown> = {},
): Promise<TestUser & { wallet: PrivateKeyAccount }> {
  const user = await activeUser(api, overrides);
  const wallet = await linkWallet(api, user);
  return { ...user, wallet };
}
