import type { Page } from '@playwright/test';
import { type Hex, hexToString, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

type Reply = { result: unknown; event?: [string, unknown] } | { error: { code: number; message: string } };

/**
 * A browser wallet without the MetaMask extension: an EIP-1193 provider injected as window.ethereum
 * before the page loads, whose requests are answered in Node where a viem local account signs. The
 * app's wagmi connector, the signing UI and the API's checks all stay real.
 */
export async function injectWallet(page: Page, opts: { privateKey?: Hex; chainId?: number } = {}) {
  const account = privateKeyToAccount(opts.privateKey ?? generatePrivateKey());
  let chainId = opts.chainId ?? 1;
  // like a real wallet: no account is exposed until the page asks for it
  let authorized = false;
  const signedMessages: string[] = [];
  const sameAccount = (a: unknown) =>
    typeof a === 'string' && a.toLowerCase() === account.address.toLowerCase();

  async function answer(method: string, params: unknown[]): Promise<Reply> {
    switch (method) {
      case 'eth_requestAccounts':
        authorized = true;
        return { result: [account.address] };
      case 'eth_accounts':
        return { result: authorized ? [account.address] : [] };
      case 'eth_chainId':
        return { result: toHex(chainId) };
      case 'net_version':
        return { result: String(chainId) };
      case 'personal_sign': {
        const [data, from] = params as [Hex, string];
        if (!authorized || !sameAccount(from))
          return { error: { code: 4100, message: 'Unauthorized account' } };
        signedMessages.push(hexToString(data));
        return { result: await account.signMessage({ message: { raw: data } }) };
      }
      case 'eth_signTypedData_v4': {
        const [from, json] = params as [string, string];
        if (!authorized || !sameAccount(from))
          return { error: { code: 4100, message: 'Unauthorized account' } };
        const { types, ...rest } = JSON.parse(json);
        const { EIP712Domain: _domain, ...messageTypes } = types;
        return { result: await account.signTypedData({ ...rest, types: messageTypes }) };
      }
      case 'wallet_switchEthereumChain': {
        chainId = Number((params[0] as { chainId: string }).chainId);
        return { result: null, event: ['chainChanged', toHex(chainId)] };
      }
      default:
        return { error: { code: 4200, message: `${method} is not supported by the test wallet` } };
    }
  }

  await page.exposeFunction('__plenumTestWallet', answer);
  await page.addInitScript(() => {
    type Listener = (...args: unknown[]) => void;
    const w = window as unknown as Record<string, unknown> & {
      __plenumTestWallet: (method: string, params: unknown[]) => Promise<Reply>;
    };
    const listeners = new Map<string, Set<Listener>>();
    const provider = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const reply = await w.__plenumTestWallet(method, params ?? []);
        if ('error' in reply) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
        if (reply.event) for (const l of listeners.get(reply.event[0]) ?? []) l(reply.event[1]);
        return reply.result;
      },
      on(event: string, listener: Listener) {
        listeners.set(event, (listeners.get(event) ?? new Set()).add(listener));
        return provider;
      },
      removeListener(event: string, listener: Listener) {
        listeners.get(event)?.delete(listener);
        return provider;
      },
    };
    w.ethereum = provider;
  });
  return { address: account.address, signedMessages };
}
