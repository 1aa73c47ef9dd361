import { describe, expect, it } from 'vitest';
import { isBlockedAddress } from './address-guard';

/** The ranges a webhook may not reach (docs/webhooks.md, "Safety"). */
describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    'fd00:ec2::254',
    'fe80::1',
    '64:ff9b::a00:1',
    'not an address',
  ])('refuses %s', (a) => expect(isBlockedAddress(a)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '::ffff:8.8.8.8', '2606:4700:4700::1111'])(
    'allows %s',
    (a) => expect(isBlockedAddress(a)).toBe(false),
  );
});
