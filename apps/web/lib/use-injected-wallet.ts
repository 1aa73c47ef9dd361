'use client';
import { useEffect, useSyncExternalStore } from 'react';

type WalletModule = typeof import('./wagmi');
type ConnectedWallet = import('./wagmi').ConnectedWallet;

let loading: Promise<WalletModule> | undefined;
let address: `0x${string}` | undefined;
const listeners = new Set<() => void>();

/**
 * wagmi and viem (lib/wagmi.ts) are imported on the first wallet action, not with every page: the
 * connected account lives here so components can show it without loading them.
 */
export function loadWallet(): Promise<WalletModule> {
  loading ??= import('./wagmi').then((wallet) => {
    wallet.watchAddress((next) => {
      if (next === address) return;
      address = next;
      for (const listener of listeners) listener();
    });
    return wallet;
  });
  return loading;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** wagmi's own record (localStorage) of the connector this browser used last */
function usedBefore() {
  try {
    return window.localStorage.getItem('wagmi.recentConnectorId') !== null;
  } catch {
    return false;
  }
}

/** the connected account; a wallet connected on an earlier visit reconnects, as WagmiProvider did */
export function useWalletAddress() {
  useEffect(() => {
    if (!loading && usedBefore()) {
      loadWallet()
        .then((wallet) => wallet.reconnectLast())
        .catch(() => {});
    }
  }, []);
  return useSyncExternalStore(
    subscribe,
    () => address,
    () => undefined,
  );
}

/**
 * The browser wallet through wagmi's injected connector (MetaMask and the like), connected on first
 * use: the one place that sign-in (EIP-4361) and signed votes (EIP-712) get their account from.
 */
export function useInjectedWallet() {
  const current = useWalletAddress();

  async function connected(): Promise<ConnectedWallet> {
    return (await loadWallet()).connected();
  }

  return { connected, address: current };
}
