import type { Page } from '@playwright/test';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { newUser, registerByApi, verificationLinkFor } from './flows';

/**
 * REST set-up for governance browser tests: the pages under test are the governance ones, so users,
 * wallets and other voters are made through the API the way any client would.
 */
export function restClient(apiUrl: string) {
  async function call<T = Record<string, unknown>>(
    method: string,
    path: string,
    opts: { body?: unknown; token?: string; expect?: number } = {},
  ): Promise<T> {
    const res = await fetch(`${apiUrl}${path}`, {
      method,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      },
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    const text = await res.text();
    const expected = opts.expect ?? (method === 'POST' ? 201 : 200);
    if (res.status !== expected) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
  return { call };
}

export interface ActiveUser {
  email: string;
  token: string;
  wallet: PrivateKeyAccount;
}

/** Registered, verified through the outbox link, signed in, with one wallet linked by SIWE. */
export async function memberUserByApi(apiUrl: string, webUrl: string, tag: string): Promise<ActiveUser> {
  const api = restClient(apiUrl);
  const user = newUser(tag);
  await registerByApi(apiUrl, user);
  const link = await verificationLinkFor(apiUrl, user.email);
  const token = new URL(link).searchParams.get('token');
  await api.call('POST', '/users/verify-email', { body: { token }, expect: 200 });
  const session = await api.call<{ token: string }>('POST', '/auth/login', {
    body: { email: user.email, password: user.password },
    expect: 200,
  });
  const wallet = privateKeyToAccount(generatePrivateKey());
  const { nonce } = await api.call<{ nonce: string }>('GET', '/auth/nonce');
  const message = createSiweMessage({
    address: wallet.address,
    chainId: 1,
    domain: new URL(webUrl).host,
    uri: webUrl,
    nonce,
    version: '1',
    issuedAt: new Date(),
  });
  await api.call('POST', '/auth/wallets', {
    body: { message, signature: await wallet.signMessage({ message }) },
    token: session.token,
  });
  return { email: user.email, token: session.token, wallet };
}

/** The browser holds the session the way the app stores it after a sign-in. */
export async function useSession(page: Page, webUrl: string, token: string | null) {
  await page.goto(`${webUrl}/`);
  await page.evaluate((t) => {
    if (t) localStorage.setItem('plenum.session', t);
    else localStorage.removeItem('plenum.session');
  }, token);
}

/** A flag that survives only as long as the document does: proves an update came without a reload. */
export async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __noReload: boolean }).__noReload = true;
  });
  return async () => page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);
}

/** The confirm step of the vote flow: the dialog that names the choice and weight, confirmed. */
export async function confirmVote(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Confirm your vote' });
  await dialog.getByRole('button', { name: 'Confirm vote' }).click();
  return dialog;
}

export type WalletMode = 'sign' | 'reject' | 'hang';

/**
 * Wraps the test wallet (e2e/wallet.ts, injected first) so a test can make it decline a signature
 * (EIP-1193 code 4001) or never answer, as a person who closes or ignores the wallet's pop-up would.
 */
export async function controlWallet(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as {
      ethereum?: { request: (a: { method: string; params?: unknown[] }) => Promise<unknown> };
      __walletMode?: string;
    };
    const provider = w.ethereum;
    if (!provider) return;
    const request = provider.request.bind(provider);
    provider.request = async (args) => {
      if (args.method === 'eth_signTypedData_v4') {
        if (w.__walletMode === 'reject')
          throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
        if (w.__walletMode === 'hang') return new Promise(() => {});
      }
      return request(args);
    };
  });
  return (mode: WalletMode) =>
    page.evaluate((m) => {
      (window as unknown as { __walletMode?: string }).__walletMode = m;
    }, mode);
}
