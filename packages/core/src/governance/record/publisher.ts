import { hkdfSync } from 'node:crypto';
import type { Services } from '../../services';
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
 * Runs publishDueRecords on an interval (docs/governance.md, "Publishing"), one pass at a time; several
 * instances may each run one (the lease makes each record built once). Tests drive it with `tick()`.
 */
export class RecordPublisher {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<number> = Promise.resolve(0);
  private stopped = true;
  private nudged = false;

  constructor(
    private readonly svc: Services,
    private readonly params: PublishParams,
    private readonly intervalMs = 5_000,
  ) {}

  start() {
    this.stopped = false;
    this.schedule();
  }

  /** one pass now (after any pass in progress); resolves with the number of records published */
  tick(): Promise<number> {
    this.current = this.current
      .catch(() => 0)
      .then(() => publishDueRecords(this.svc, this.params))
      .catch((err: unknown) => {
        this.svc.log.warn({ err }, 'proposal record pass failed');
        return 0;
      });
    return this.current;
  }

  /**
   * a pass soon, after any in progress: a proposal just closed. Nudges while one is waiting fold into it,
   * so a burst of closes costs one pass.
   */
  nudge() {
    if (this.stopped || this.nudged) return;
    this.nudged = true;
    void this.current.finally(() => {
      this.nudged = false;
      if (!this.stopped) void this.tick();
    });
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.current.catch(() => 0);
  }

  private schedule() {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.tick().finally(() => this.schedule());
    }, this.intervalMs);
    this.timer.unref();
  }
}
