import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { AppError } from './errors';

/**
 * Secrets the server must read back (TOTP seeds) are encrypted with a key derived from the server's
 * secret key (docs/accounts.md, "The secret key"): AES-256-GCM, a fresh 12-byte IV each time, stored as
 * `v1.<iv>.<tag>.<ciphertext>` in base64url. Codes the server only compares (recovery codes) are kept as
 * HMAC-SHA-256 under another derived key, so a copy of the database alone cannot test guesses offline.
 */
const derive = (secretKey: Uint8Array, purpose: string) =>
  Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), `plenum ${purpose}`, 32));

/** derived on each use (HKDF is a few microseconds): no key cache outside the service container */
const keyFor = (secretKey: Uint8Array, purpose: string): Buffer => derive(secretKey, purpose);

export function seal(secretKey: Uint8Array, purpose: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secretKey, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/**
 * The plain text of `sealed`. A value sealed under another key (an instance started with a different
 * SECRET_KEY or DATA_DIR) cannot be opened: 503 MFA_UNAVAILABLE, logged by the caller's error path,
 * rather than a wrong answer.
 */
export function open(secretKey: Uint8Array, purpose: string, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  try {
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed value');
    const decipher = createDecipheriv(
      'aes-256-gcm',
      keyFor(secretKey, purpose),
      Buffer.from(iv, 'base64url'),
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'The second factor cannot be read with this server’s secret key; every instance needs the same SECRET_KEY',
      { reason: 'MFA_UNAVAILABLE' },
    );
  }
}

/** a keyed hash for values that are only ever compared */
export function keyedHash(secretKey: Uint8Array, purpose: string, value: string): string {
  return createHmac('sha256', keyFor(secretKey, purpose)).update(value).digest('hex');
}
