import { createPublicClient, type Hex, http, recoverMessageAddress } from 'viem';
import { parseSiweMessage } from 'viem/siwe';

type ParsedSiwe = ReturnType<typeof parseSiweMessage>;

import type { Services } from '../../services';
import { AppError, badRequest, unauthorized } from '../../shared/errors';
import { canonicalAddress } from '../address';
import { consumeNonce } from './nonce';

export interface SiweCheckOptions {
  appUrl: string;
  chainIds: number[];
  now: Date;
}

/**
 * The EIP-4361 checks that need no signature: domain and uri bound to this app, allowed chain, time
 * window. Returns the parsed message or throws 401 with a reason naming the failed check.
 */
export function checkSiweMessage(
  message: string,
  opts: SiweCheckOptions,
): ParsedSiwe & { address: `0x${string}`; nonce: string; chainId: number } {
  let parsed: ParsedSiwe;
  try {
    parsed = parseSiweMessage(message);
  } catch {
    throw badRequest(
      'Not an EIP-4361 message',
      [{ path: 'message', message: 'not an EIP-4361 message' }],
      'INVALID_SIWE_MESSAGE',
    );
  }
  if (
    !parsed.address ||
    !parsed.nonce ||
    !parsed.chainId ||
    !parsed.domain ||
    !parsed.uri ||
    !parsed.version
  ) {
    throw badRequest(
      'Incomplete EIP-4361 message',
      [{ path: 'message', message: 'missing required fields' }],
      'INVALID_SIWE_MESSAGE',
    );
  }
  // EIP-4361: version 1, and the address in its EIP-55 form where it has mixed case
  if (parsed.version !== '1')
    throw badRequest(
      'EIP-4361 messages are version 1',
      [{ path: 'message', message: 'Version must be 1' }],
      'INVALID_SIWE_MESSAGE',
    );
  canonicalAddress(parsed.address, 'message');
  const app = new URL(opts.appUrl);
  if (parsed.domain !== app.host)
    throw unauthorized(`Message domain must be ${app.host}`, 'SIWE_DOMAIN_MISMATCH');
  let uri: URL;
  try {
    uri = new URL(parsed.uri);
  } catch {
    throw unauthorized('Message uri is not a URL', 'SIWE_URI_MISMATCH');
  }
  if (uri.origin !== app.origin)
    throw unauthorized(`Message uri must be on ${app.origin}`, 'SIWE_URI_MISMATCH');
  if (!opts.chainIds.includes(parsed.chainId))
    throw unauthorized(`Chain id ${parsed.chainId} is not allowed`, 'SIWE_CHAIN_NOT_ALLOWED');
  const now = opts.now.getTime();
  if (parsed.expirationTime && parsed.expirationTime.getTime() <= now)
    throw unauthorized('Message has expired', 'SIWE_EXPIRED');
  if (parsed.notBefore && parsed.notBefore.getTime() > now)
    throw unauthorized('Message is not valid yet', 'SIWE_NOT_YET_VALID');
  return parsed as ParsedSiwe & { address: `0x${string}`; nonce: string; chainId: number };
}

async function signatureMatches(
  address: `0x${string}`,
  message: string,
  signature: Hex,
  rpcUrl?: string,
): Promise<boolean> {
  try {
    const recovered = await recoverMessageAddress({ message, signature });
    if (recovered.toLowerCase() === address.toLowerCase()) return true;
  } catch {
    // not an ECDSA signature: may still be a contract wallet's
  }
  if (!rpcUrl) return false;
  try {
    const client = createPublicClient({ transport: http(rpcUrl, { timeout: 10_000 }) });
    return await client.verifyMessage({ address, message, signature });
  } catch {
    return false;
  }
}

/** Full verification: message checks, signature, then the nonce is spent (a replay fails here). */
export async function verifySiwe(svc: Services, params: { message: string; signature: string }) {
  const now = svc.clock.now();
  const parsed = checkSiweMessage(params.message, {
    appUrl: svc.config.appUrl,
    chainIds: svc.config.siweChainIds,
    now,
  });
  if (!/^0x[0-9a-fA-F]+$/.test(params.signature))
    throw unauthorized('Malformed signature', 'INVALID_SIGNATURE');
  const ok = await signatureMatches(
    parsed.address,
    params.message,
    params.signature as Hex,
    svc.config.siweRpcUrl,
  );
  if (!ok) throw unauthorized('Signature does not match the message', 'INVALID_SIGNATURE');
  if (!(await consumeNonce(svc.db, parsed.nonce, now)))
    throw unauthorized('Nonce unknown, expired or already used', 'SIWE_NONCE_INVALID');
  const address = canonicalAddress(parsed.address);
  if (!address) throw new AppError('INTERNAL_SERVER_ERROR', 'address');
  return { address, chainId: parsed.chainId };
}
