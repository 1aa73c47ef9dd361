import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from '../src/env';

describe('configuration from the environment', () => {
  it('runs on embedded defaults with no variables at all', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(4000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SESSION_TTL).toBe(7 * 24 * 3_600_000);
    expect(env.VERIFICATION_TOKEN_EXPIRY).toBe(24 * 3_600_000);
    expect(env.siweChainIds).toEqual([1, 10, 137, 8453, 42161, 11155111]);
    expect(env.RATE_LIMIT_PER_MINUTE).toBe(600);
    expect(env.uploadPath.endsWith('/.data/uploads')).toBe(true);
  });

  it('treats empty variables as unset (a copied .env.example)', () => {
    const env = loadEnv({
      UPLOAD_PATH: '',
      DATA_DIR: '',
      DATABASE_URL: '',
      LOG_LEVEL: '',
      PORT: ' ',
      MAIL_FROM: '',
    });
    expect(env.uploadPath.endsWith('/.data/uploads')).toBe(true);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.LOG_LEVEL).toBe('info');
    expect(env.PORT).toBe(4000);
    expect(env.MAIL_FROM).toContain('plenum');
  });

  it('names every bad variable in one message', () => {
    try {
      loadEnv({
        PORT: 'eighty',
        DATABASE_URL: 'not a url',
        SESSION_TTL: 'forever',
        PASSWORD_REQUIRE_NUMBERS: 'maybe',
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(EnvError);
      const msg = (err as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'SESSION_TTL', 'PASSWORD_REQUIRE_NUMBERS'])
        expect(msg).toContain(name);
    }
  });

  it('takes TERMS_URL as an http(s) address only (the registration page links it)', () => {
    expect(loadEnv({}).TERMS_URL).toBeUndefined();
    expect(loadEnv({ TERMS_URL: '' }).TERMS_URL).toBeUndefined();
    expect(loadEnv({ TERMS_URL: 'https://example.org/terms' }).TERMS_URL).toBe('https://example.org/terms');
    expect(() => loadEnv({ TERMS_URL: 'javascript:alert(1)' })).toThrow(/TERMS_URL/);
  });

  it('reads CHAIN_RPC_URLS as chainId=url pairs and names a bad pair', () => {
    expect(loadEnv({}).CHAIN_RPC_URLS).toEqual({});
    expect(
      loadEnv({
        CHAIN_RPC_URLS: ' 1=https://eth.example.org , 31337=http://127.0.0.1:8545',
        CHAIN_CONFIRMATIONS: '3',
      }),
    ).toMatchObject({
      CHAIN_RPC_URLS: { 1: 'https://eth.example.org', 31337: 'http://127.0.0.1:8545' },
      CHAIN_CONFIRMATIONS: 3,
    });
    for (const bad of [
      'mainnet=https://x.org',
      '1=ftp://x.org',
      '1=https://a.org,1=https://b.org',
      '0=http://x.org',
      'https://x.org',
    ]) {
      expect(() => loadEnv({ CHAIN_RPC_URLS: bad }), bad).toThrow(EnvError);
      try {
        loadEnv({ CHAIN_RPC_URLS: bad });
      } catch (err) {
        expect((err as Error).message).toContain('CHAIN_RPC_URLS');
      }
    }
    expect(() => loadEnv({ CHAIN_CONFIRMATIONS: '-1' })).toThrow(EnvError);
  });

  it("reads the embedded database's memory settings and names a bad one", () => {
    expect(loadEnv({})).toMatchObject({ PGLITE_SHARED_BUFFERS: '16MB', PGLITE_MAINTENANCE_WORK_MEM: '16MB' });
    expect(loadEnv({ PGLITE_SHARED_BUFFERS: '128MB' }).PGLITE_SHARED_BUFFERS).toBe('128MB');
    // a value PostgreSQL would reject at start is refused here, with its name
    expect(() => loadEnv({ PGLITE_SHARED_BUFFERS: '16 megabytes' })).toThrow(
      /PGLITE_SHARED_BUFFERS: must be a size/,
    );
    expect(() => loadEnv({ PGLITE_MAINTENANCE_WORK_MEM: '16mb' })).toThrow(/PGLITE_MAINTENANCE_WORK_MEM/);
  });

  it('reads the embedded node swarm settings and names a bad one', () => {
    expect(loadEnv({}).ipfsSwarm).toEqual({
      port: 4001,
      wsPort: 4002,
      host: '0.0.0.0',
      anyPortIfTaken: true,
      bootstrap: [],
      announce: [],
      maxConnections: 100,
      handshakeTimeoutMs: 5_000,
      maxPendingInbound: 64,
    });
    expect(loadEnv({ IPFS_SWARM_PORT: '0' }).ipfsSwarm).toMatchObject({ port: 0, wsPort: 0 });
    expect(loadEnv({ IPFS_SWARM_PORT: '5001', IPFS_SWARM_WS_PORT: '0' }).ipfsSwarm).toMatchObject({
      port: 5001,
      wsPort: 0,
      anyPortIfTaken: false,
    });
    // one chosen port makes both a must; an empty variable is not a choice
    expect(loadEnv({ IPFS_SWARM_WS_PORT: '4102' }).ipfsSwarm).toMatchObject({ anyPortIfTaken: false });
    expect(loadEnv({ IPFS_SWARM_PORT: '' }).ipfsSwarm).toMatchObject({ anyPortIfTaken: true });
    const peer = '/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWAbCdEf';
    expect(
      loadEnv({ IPFS_BOOTSTRAP: ` ${peer} , ${peer.replace('tcp/4001', 'tcp/4002/ws')}` }).ipfsSwarm,
    ).toMatchObject({ bootstrap: [peer, peer.replace('tcp/4001', 'tcp/4002/ws')] });
    expect(loadEnv({ IPFS_OFFLINE: '1' }).ipfsSwarm).toBeNull();
    for (const [name, bad] of [
      ['IPFS_SWARM_PORT', '65536'],
      ['IPFS_SWARM_PORT', 'x'],
      ['IPFS_SWARM_WS_PORT', '-1'],
      ['IPFS_SWARM_HOST', 'localhost'],
      ['IPFS_BOOTSTRAP', '/ip4/127.0.0.1/tcp/4001'],
      ['IPFS_ANNOUNCE', 'example.org:4001'],
      ['IPFS_MAX_CONNECTIONS', '0'],
      ['IPFS_OFFLINE', 'maybe'],
    ] as const) {
      expect(() => loadEnv({ [name]: bad }), `${name}=${bad}`).toThrow(name);
    }
  });

  it('checks cross-field rules', () => {
    expect(() => loadEnv({ PASSWORD_MIN_LENGTH: '20', PASSWORD_MAX_LENGTH: '10' })).toThrow(
      /PASSWORD_MIN_LENGTH/,
    );
    expect(() => loadEnv({ SIWE_CHAIN_IDS: '1,abc' })).toThrow(/SIWE_CHAIN_IDS/);
    // a type that is not an allowed avatar format (docs/users.md, "Avatars") is named, not silently dropped
    expect(() => loadEnv({ ALLOWED_IMAGE_TYPES: 'png,bmp' })).toThrow(/ALLOWED_IMAGE_TYPES/);
    expect(loadEnv({ ALLOWED_IMAGE_TYPES: 'PNG, image/gif' }).ALLOWED_IMAGE_TYPES).toEqual([
      'PNG',
      'image/gif',
    ]);
    expect(() => loadEnv({ ALLOWED_FILE_TYPES: 'pdf' })).toThrow(/ALLOWED_FILE_TYPES/);
  });

  it('parses lists, booleans and durations', () => {
    const env = loadEnv({
      ADMIN_EMAILS: ' A@x.org , b@y.org',
      EMAIL_VERIFICATION_REQUIRED: 'false',
      SESSION_TTL: '30m',
    });
    expect(env.adminEmails).toEqual(['a@x.org', 'b@y.org']);
    expect(env.EMAIL_VERIFICATION_REQUIRED).toBe(false);
    expect(env.SESSION_TTL).toBe(1_800_000);
  });
  it('reads OIDC_PROVIDERS as a JSON array and names the bad field without echoing a secret', () => {
    const good = {
      id: 'acme',
      name: 'Acme ID',
      issuer: 'https://id.acme.example',
      clientId: 'c',
      clientSecret: 's3cret-value',
    };
    expect(loadEnv({}).OIDC_PROVIDERS).toEqual([]);
    expect(loadEnv({ OIDC_PROVIDERS: JSON.stringify([good]) }).OIDC_PROVIDERS).toEqual([good]);
    // http only for a loopback issuer (a provider run for tests)
    const local = { ...good, issuer: 'http://127.0.0.1:9000' };
    expect(loadEnv({ OIDC_PROVIDERS: JSON.stringify([local]) }).OIDC_PROVIDERS).toEqual([local]);
    for (const [bad, field] of [
      ['not json', 'JSON array'],
      [JSON.stringify({ ...good }), 'expected array'],
      [JSON.stringify([{ ...good, issuer: 'http://id.acme.example' }]), '[0].issuer'],
      [JSON.stringify([{ ...good, id: 'Acme ID' }]), '[0].id'],
      [JSON.stringify([good, { ...good, clientId: '' }]), '[1].clientId'],
      [JSON.stringify([good, good]), 'given twice'],
    ] as const) {
      try {
        loadEnv({ OIDC_PROVIDERS: bad });
        expect.unreachable(bad);
      } catch (err) {
        expect(err, bad).toBeInstanceOf(EnvError);
        const msg = (err as Error).message;
        expect(msg, bad).toContain('OIDC_PROVIDERS');
        expect(msg, bad).toContain(field);
        expect(msg, bad).not.toContain('s3cret-value');
      }
    }
  });
});
