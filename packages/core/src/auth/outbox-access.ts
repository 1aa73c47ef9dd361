import type { Principal } from './sessions';

/**
 * Who may read the development outbox (docs/operations.md, "Email"). It holds every verification and reset
 * link, so reading it over the network would be an account takeover. Without a mail provider it answers
 * an admin from anywhere, and anyone else only on a local trial: the request's socket comes from a
 * loopback address (never a forwarded header, which the client writes) and APP_URL is on localhost.
 * With a provider configured it answers nobody: mail then goes out for real.
 */
export function outboxReadable(params: {
  emailProviderConfigured: boolean;
  appUrl: string;
  /** the TCP peer of the request (null when unknown, e.g. a call from inside the process) */
  socketAddress: string | null;
  principal: Principal | null;
}): boolean {
  if (params.emailProviderConfigured) return false;
  if (params.principal?.role === 'admin') return true;
  return isLocalAppUrl(params.appUrl) && isLoopbackAddress(params.socketAddress);
}

/** 127.0.0.0/8, ::1 and the IPv4-mapped 127.x (a dual-stack socket's view of an IPv4 loopback client) */
export function isLoopbackAddress(address: string | null | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice('::ffff:'.length) : a;
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v4);
  return m?.slice(1).every((part) => Number(part) <= 255) ?? false;
}

/** APP_URL names this machine: the instance is a local trial, not a deployment */
export function isLocalAppUrl(appUrl: string): boolean {
  try {
    return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(appUrl).hostname.toLowerCase());
  } catch {
    return false;
  }
}
