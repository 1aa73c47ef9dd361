import { type LookupAddress, lookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where a webhook may not be sent (docs/webhooks.md, "Safety"): loopback, private, shared, link-local
 * (cloud metadata at 169.254.169.254 included), multicast and reserved ranges, in IPv4 and IPv6.
 */
const V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;
const V6 = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const;

/**
 * IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are checked against the IPv4 ranges by BlockList itself;
 * a ::ffff:0:0/96 rule would match every IPv4 address. Built per check (a few dozen ranges, microseconds):
 * a BlockList is mutable, so none is kept in the module.
 */
function blockedRanges(): BlockList {
  const list = new BlockList();
  for (const [net, bits] of V4) list.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of V6) list.addSubnet(net, bits, 'ipv6');
  return list;
}

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  const blocked = blockedRanges();
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
}

export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError';
}

/**
 * A `lookup` for http(s).request that resolves the name, refuses it when any address is in a blocked
 * range, and hands the connection exactly the addresses it checked (no second resolution to rebind).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { all: true, family: options.family ?? 0 }, (err, found: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const bad = allowPrivate ? undefined : found.find((a) => isBlockedAddress(a.address));
      if (bad || !found.length)
        return callback(
          new RefusedAddressError(
            `${hostname} resolves to ${bad?.address ?? 'nothing'}, which is not allowed`,
          ),
          '',
          0,
        );
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, found);
      const first = found[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** the URL's host when it is an IP literal (brackets of IPv6 removed), else null */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}
