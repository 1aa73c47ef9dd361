import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for tests and benches (docs/accounts.md, "Passkeys"): a P-256 key
 * per credential (node:crypto), attestation "none", CBOR from @simplewebauthn's own encoder. It answers
 * the server's options as a browser with a platform authenticator would (resident keys, user
 * verification), and can be told to lie: another origin or rp id, a counter that goes back (a clone).
 */
export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  /** the COSE public key */
  cose: Uint8Array;
  rpId: string;
  userHandle: string;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export interface Tamper {
  origin?: string;
  rpId?: string;
  challenge?: string;
  /** the counter to report instead of the next one */
  counter?: number;
  /** leave the UV flag off (a key that only proves presence) */
  noUserVerification?: boolean;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

function counterBytes(n: number) {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  const key = new Map<number, number | Uint8Array>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, new Uint8Array(Buffer.from(jwk.x as string, 'base64url'))],
    [-3, new Uint8Array(Buffer.from(jwk.y as string, 'base64url'))],
  ]);
  return isoCBOR.encode(key);
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];
  /** `zero`: the counter always reads 0, as synced passkeys report it */
  constructor(
    readonly origin: string,
    private readonly counterMode: 'increment' | 'zero' = 'increment',
  ) {}

  /** navigator.credentials.create(): a new credential for the options' rp and user */
  register(options: CreationOptions, tamper: Tamper = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const credential: SoftCredential = {
      id: randomBytes(16),
      privateKey,
      cose: coseKey(publicKey),
      rpId,
      userHandle: options.user.id,
      counter: 0,
    };
    this.credentials.push(credential);
    return this.attest(credential, options, tamper);
  }

  /** the registration answer for a credential this authenticator holds already (as if registered again) */
  attest(credential: SoftCredential, options: CreationOptions, tamper: Tamper = {}) {
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, tamper);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      sha256(tamper.rpId ?? credential.rpId),
      Buffer.from([FLAG_UP | (tamper.noUserVerification ? 0 : FLAG_UV) | FLAG_AT]),
      counterBytes(credential.counter),
      Buffer.alloc(16), // aaguid: none
      idLength,
      credential.id,
      Buffer.from(credential.cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<never, never>>([
        ['fmt', 'none'],
        ['attStmt', new Map<never, never>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /**
   * navigator.credentials.get(): signs the options' challenge with the first credential they allow (or,
   * with none listed, the first one for the rp: a discoverable sign-in), or with `credential` if given
   */
  authenticate(options: RequestOptions, tamper: Tamper = {}, credential?: SoftCredential) {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
    const chosen =
      credential ??
      this.credentials.find((c) => c.rpId === rpId && (!allowed.length || allowed.includes(b64url(c.id))));
    if (!chosen) throw new Error('no credential for these options');
    if (this.counterMode === 'increment') chosen.counter += 1;
    const counter = tamper.counter ?? (this.counterMode === 'zero' ? 0 : chosen.counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, tamper);
    const authData = Buffer.concat([
      sha256(tamper.rpId ?? chosen.rpId),
      Buffer.from([FLAG_UP | (tamper.noUserVerification ? 0 : FLAG_UV)]),
      counterBytes(counter),
    ]);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), chosen.privateKey);
    return {
      id: b64url(chosen.id),
      rawId: b64url(chosen.id),
      type: 'public-key' as const,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: chosen.userHandle,
      },
    };
  }

  /** another authenticator holding copies of these credentials (same keys, counters copied as they are now) */
  clone(): SoftAuthenticator {
    const copy = new SoftAuthenticator(this.origin, this.counterMode);
    for (const c of this.credentials) copy.credentials.push({ ...c });
    return copy;
  }

  private clientData(type: string, challenge: string, tamper: Tamper) {
    return Buffer.from(
      JSON.stringify({
        type,
        challenge: tamper.challenge ?? challenge,
        origin: tamper.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }
}
