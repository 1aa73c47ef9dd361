import { type Database, DatabaseTimeout, isLockConflict } from '@plenum/db';
import type { ServiceBase } from '../service-base';
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
  /** performance.now() at submit (a vDSO clock read, no system call) */
  at: number;
  /** the vote's deadline, when the batcher has one */
  timer?: NodeJS.Timeout;
}

/** One batch, as reported to observers once its votes are answered. */
export interface VoteBatchReport {
  /** votes in the batch, counted or refused */
  size: number;
  /** seconds from the start of its commit (waiting for a writer connection and retries included) to the
   * durable commit, or to the final failure */
  seconds: number;
  /** false when the batch failed as a whole (each of its votes was answered with the error) */
  committed: boolean;
}

/**
 * Watches the batcher (the server's /metrics, docs/operations.md "Metrics"). Called after the batch's
 * votes are answered, never inside the commit; an observer must be cheap and must not throw.
 */
export interface VoteBatchObserver {
  /** once per batch */
  onBatch?(batch: VoteBatchReport): void;
  /** once per vote of that batch: seconds from its submit to its answer */
  onVote?(seconds: number): void;
}

export class VoteBatcher {
  private readonly queues = new Map<string, Pending[]>();
  private readonly inFlight = new Map<string, number>();
  private readonly scheduled = new Set<string>();
  private idle: (() => void)[] = [];
  private observers: VoteBatchObserver[] = [];

  constructor(
    private readonly svc: Pick<ServiceBase, 'db' | 'clock' | 'log'>,
    /** connections of their own, so a commit never queues behind request reads */
    private readonly writer: Database = svc.db,
    private readonly maxInFlight = 3,
    private readonly maxBatch = 1_000,
    /**
     * a vote not answered this long after its submit is answered with a DatabaseTimeout (503; docs/
     * operations.md, "Database outages"): one still queued is taken out (it will not be written); one in
     * a batch whose commit has not answered may still be committed when the database answers again. A
     * vote is resolved only by its batch's commit, so an acknowledged vote is always committed.
     */
    private readonly deadlineMs = 0,
  ) {}

  submit(req: VoteRequest): Promise<VoteRow> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(req.proposalId) ?? [];
      this.queues.set(req.proposalId, queue);
      const pending: Pending = { req, resolve, reject, at: performance.now() };
      if (this.deadlineMs) {
        pending.timer = setTimeout(() => this.expire(pending), this.deadlineMs);
        pending.timer.unref();
        // a settled vote's timer goes (the promise settles once: a late outcome changes nothing)
        pending.resolve = (row) => {
          clearTimeout(pending.timer);
          resolve(row);
        };
        pending.reject = (err) => {
          clearTimeout(pending.timer);
          reject(err);
        };
      }
      queue.push(pending);
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

  private expire(p: Pending) {
    const queue = this.queues.get(p.req.proposalId);
    const i = queue?.indexOf(p) ?? -1;
    if (queue && i >= 0) {
      queue.splice(i, 1);
      if (!queue.length && !this.scheduled.has(p.req.proposalId)) this.pump(p.req.proposalId);
      p.reject(
        new DatabaseTimeout(`The vote was not written within ${this.deadlineMs} ms; it was not counted`),
      );
    } else
      p.reject(
        new DatabaseTimeout(
          `The vote's commit was not confirmed within ${this.deadlineMs} ms; it may have counted`,
        ),
      );
  }

  /** Reports every batch to `observer` from now on; returns the function that stops it. */
  observe(observer: VoteBatchObserver): () => void {
    this.observers = [...this.observers, observer];
    return () => {
      this.observers = this.observers.filter((o) => o !== observer);
    };
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
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      try {
        const outcomes = await commitVotes(
          this.writer,
          this.svc.clock.now(),
          proposalId,
          batch.map((p) => p.req),
        );
        const committed = performance.now();
        batch.forEach((p, i) => {
          const o = outcomes[i]!;
          if (o instanceof AppError) p.reject(o);
          else p.resolve(o);
        });
        this.report(batch, started, committed, true);
        return;
      } catch (err) {
        if (attempt < 3 && isLockConflict(err)) continue;
        const failed = performance.now();
        this.svc.log.error({ err, proposalId, size: batch.length }, 'vote batch failed');
        for (const p of batch) p.reject(err);
        this.report(batch, started, failed, false);
        return;
      }
    }
  }

  private report(batch: Pending[], started: number, ended: number, committed: boolean) {
    for (const o of this.observers) {
      try {
        o.onBatch?.({ size: batch.length, seconds: (ended - started) / 1000, committed });
        if (o.onVote) for (const p of batch) o.onVote((ended - p.at) / 1000);
      } catch (err) {
        this.svc.log.warn({ err }, 'a vote batch observer failed');
      }
    }
  }
}
