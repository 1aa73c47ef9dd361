/**
 * The server's attestation of a record (docs/governance.md, "What the attestation proves"): an Ed25519
 * signature over the bytes of the body's CID, made and checked with node:crypto.
 */

import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import type { Attestation } from './format';

export type Attestor = (message: Uint8Array) => Attestation;

/** an attestor over an Ed25519 private key (a KeyObject, or its 32-byte seed) */
export function ed25519Attestor(key: KeyObject | Uint8Array): Attestor {
  const privateKey = key instanceof Uint8Array ? ed25519FromSeed(key) : key;
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicKey = new Uint8Array(Buffer.from(jwk.x!, 'base64url'));
  return (message) => ({
    alg: 'Ed25519',
    publicKey,
    signature: new Uint8Array(sign(null, message, privateKey)),
  });
}

function ed25519FromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new RangeError('an Ed25519 seed has 32 bytes');
  // PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410): a fixed 16-byte prefix
  const prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
  return createPrivateKey({ key: Buffer.concat([prefix, seed]), format: 'der', type: 'pkcs8' });
}

/** whether `a` is a valid Ed25519 signature of `message` */
export function verifyAttestation(a: Attestation, message: Uint8Array): boolean {
  if (a.alg !== 'Ed25519' || a.publicKey.length !== 32) return false;
  try {
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(a.publicKey).toString('base64url') },
      format: 'jwk',
    });
    return verify(null, message, key, a.signature);
  } catch {
    return false;
  }
}
