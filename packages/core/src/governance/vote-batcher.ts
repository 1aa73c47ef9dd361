import { type Database, sqlState } from '@plenum/db';
import type { Services } from '../services';
import { AppError } from '../shared/errors';
import { commitVotes, type VoteRequest, type VoteRow } from './vote-commit';

/**
 * Group commit of votes. Votes for one proposal queue up; up to `maxInFlight` batches of a proposal run at
 * once, each taking everything queued (up to maxBatch) as one transaction (vote-commit.ts), so the
 * database sees a few large transactions instead of one per vote. Each request is answered only after
 * its batch committed: a 201 means counted and durable.
 */

interface Pending {
  req: VoteRequest;
  resolve: (row: VoteRow) => void;
  reject: (err: unknown) => void;
}

const RETRYABLE = new Set(['40001', '40P01']);

export class VoteBatcher {
  private readonly queues = new Map<string, Pending[]>();
  private readonly inFlight = new Map<string, number>();
  private readonly scheduled = new Set<string>();
  private idle: (() => void)[] = [];

  constructor(
    private readonly svc: Services,
    /** connections of their own, so a commit never queues behind request reads */
    private readonly writer: Database = svc.db,
    private readonly maxInFlight = 3,
    private readonly maxBatch = 1_000,
  ) {}

  submit(req: VoteRequest): Promise<VoteRow> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(req.proposalId) ?? [];
      this.queues.set(req.proposalId, queue);
      queue.push({ req, resolve, reject });
      if (!this.scheduled.has(req.proposalId)) {
        // let the votes that arrive in the same turn of the event loop join the batch
        this.scheduled.add(req.proposalId);
        setImmediate(() => {
          this.scheduled.delete(req.proposalId);
          this.pump(req.proposalId);
        });
      }
    });
  }

  /** resolves once every vote submitted so far is committed or refused */
  flush(): Promise<void> {
    if (!this.busy()) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private busy() {
    return this.queues.size > 0 || this.inFlight.size > 0 || this.scheduled.size > 0;
  }

  private pump(proposalId: string) {
    const queue = this.queues.get(proposalId);
    let running = this.inFlight.get(proposalId) ?? 0;
    while (queue?.length && running < this.maxInFlight) {
      const batch = queue.splice(0, this.maxBatch);
      running++;
      this.inFlight.set(proposalId, running);
      void this.commitWithRetry(proposalId, batch).finally(() => {
        const left = (this.inFlight.get(proposalId) ?? 1) - 1;
        if (left) this.inFlight.set(proposalId, left);
        else this.inFlight.delete(proposalId);
        this.pump(proposalId);
      });
    }
    if (!queue?.length) this.queues.delete(proposalId);
    if (!this.busy()) for (const done of this.idle.splice(0)) done();
  }

  private async commitWithRetry(proposalId: string, batch: Pending[]) {
    for (let attempt = 1; ; attempt++) {
      try {
        const outcomes = await commitVotes(
          this.writer,
          this.svc.clock.now(),
          proposalId,
          batch.map((p) => p.req),
        );
        batch.forEach((p, i) => {
          const o = outcomes[i]!;
          if (o instanceof AppError) p.reject(o);
          else p.resolve(o);
        });
        return;
      } catch (err) {
        if (attempt < 3 && RETRYABLE.has(sqlState(err) ?? '')) continue;
        this.svc.log.error({ err, proposalId, size: batch.length }, 'vote batch failed');
        for (const p of batch) p.reject(err);
        return;
      }
    }
  }
}
