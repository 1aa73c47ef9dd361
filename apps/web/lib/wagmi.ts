import { createConfig, http } from 'wagmi';
import { arbitrum, base, mainnet, optimism, polygon, sepolia } from 'wagmi/chains';
import { injected } from 'wagmi/connectors';

/**
 * Wallets are used only to sign EIP-4361 messages: no RPC call is made, so the transports are never
 * used. The chains match the API's default SIWE_CHAIN_IDS; the server decides which it accepts.
 */
export const wagmiConfig = createConfig({
  chains: [mainnet, optimism, polygon, base, arbitrum, sepolia],
  connectors: [injected()],
  transports: {
    [mainnet.id]: http(),
    [optimism.id]: http(),
    [polygon.id]: http(),
    [base.id]: http(),
    [arbitrum.id]: http(),
    [sepolia.id]: http(),
  },
  ssr: true,
});

declare module 'wagmi' {
  interface Register {
    config: typeof wagmiConfig;
  }
}
