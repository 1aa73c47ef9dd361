import { createHash, randomBytes } from 'node:crypto';

/** An opaque secret for the client: 32 random bytes, base64url. */
export function newToken(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Tokens are high-entropy, so a fast hash is enough to keep the stored value useless to a thief. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
