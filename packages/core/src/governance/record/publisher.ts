import { hkdfSync } from 'node:crypto';
import type { Services } from '../../services';
import { RepeatingPass } from '../../shared/repeating-pass';
import { type Attestor, ed25519Attestor } from './attest';
import { type PublishParams, publishDueRecords } from './publish';

/**
 * The instance's record key (docs/governance.md, "What the attestation proves"): an Ed25519 key derived
 * from the server's secret key (HKDF-SHA256), so every instance sharing SECRET_KEY signs with the same key
 * and no second secret is kept. A new SECRET_KEY gives a new key; old records carry the key they were
 * signed with.
 */
export function recordAttestor(secretKey: Uint8Array): Attestor {
  return ed25519Attestor(recordSeed(secretKey));
}

/** the record key's public half (32 bytes), what a verifier pins with `--key` */
export function recordPublicKey(secretKey: Uint8Array): Uint8Array {
  return recordAttestor(secretKey)(new Uint8Array(0)).publicKey;
}

const recordSeed = (secretKey: Uint8Array) =>
  new Uint8Array(hkdfSync('sha256', secretKey, 'plenum', 'proposal record attestation v1', 32));

/**
 * Runs publishDueRecords on an interval (docs/governance.md, "Publishing"), one pass at a time, and at once
 * when nudged (a proposal closed); several instances may each run one (the lease makes each record
 * stored once).
 */
export class RecordPublisher extends RepeatingPass {
  constructor(
    private readonly svc: Services,
    private readonly params: PublishParams,
    intervalMs = 5_000,
  ) {
    super(svc.log, intervalMs, 'proposal record pass');
  }

  /** resolves with the number of records published */
  protected pass(): Promise<number> {
    return publishDueRecords(this.svc, this.params);
  }
}
