import { describe, expect, it } from 'vitest';
import { isLocalAppUrl, isLoopbackAddress, outboxReadable } from './outbox-access';
import { type Principal, SESSION_SCOPES } from './sessions';

const admin: Principal = {
  userId: 'u1',
  role: 'admin',
  status: 'active',
  email: 'admin@example.org',
  kind: 'session',
  credentialId: 'c1',
  scopes: SESSION_SCOPES,
};
const member: Principal = { ...admin, role: 'user' };
const local = { emailProviderConfigured: false, appUrl: 'http://localhost:3000' };

describe('development outbox access', () => {
  it('knows loopback addresses, IPv4-mapped ones included, and nothing else', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '::FFFF:127.1.2.3'])
      expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of [
      '192.0.2.2',
      '10.0.0.1',
      '::ffff:192.0.2.2',
      'fd00::2',
      '127.0.0.256',
      '128.0.0.1',
      '',
      null,
    ])
      expect(isLoopbackAddress(a), String(a)).toBe(false);
  });

  it('knows a localhost APP_URL', () => {
    for (const u of [
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://[::1]:3000',
      'http://LOCALHOST',
    ])
      expect(isLocalAppUrl(u), u).toBe(true);
    for (const u of [
      'https://plenum.example.org',
      'http://localhost.example.org',
      'http://192.0.2.2:3000',
      'x',
    ])
      expect(isLocalAppUrl(u), u).toBe(false);
  });

  it('answers loopback on a local trial, admins anywhere, and nobody once a provider is configured', () => {
    expect(outboxReadable({ ...local, socketAddress: '127.0.0.1', principal: null })).toBe(true);
    expect(outboxReadable({ ...local, socketAddress: '192.0.2.7', principal: null })).toBe(false);
    expect(outboxReadable({ ...local, socketAddress: '192.0.2.7', principal: member })).toBe(false);
    expect(outboxReadable({ ...local, socketAddress: '192.0.2.7', principal: admin })).toBe(true);
    const deployed = { ...local, appUrl: 'https://plenum.example.org' };
    expect(outboxReadable({ ...deployed, socketAddress: '127.0.0.1', principal: null })).toBe(false);
    expect(outboxReadable({ ...deployed, socketAddress: '192.0.2.7', principal: admin })).toBe(true);
    const provider = { ...local, emailProviderConfigured: true };
    expect(outboxReadable({ ...provider, socketAddress: '127.0.0.1', principal: admin })).toBe(false);
  });
});
