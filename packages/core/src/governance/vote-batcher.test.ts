import { type Database, DatabaseTimeout } from '@plenum/db';
import { describe, expect, it } from 'vitest';
import type { Services } from '../services';
import { VoteBatcher } from './vote-batcher';
import type { VoteRequest } from './vote-commit';

/**
 * The batcher's deadline (docs/operations.md, "Database outages"), against a writer whose transactions
 * never answer (a frozen database): the vote in the stuck batch is answered "may have counted", the
 * votes queued behind it "not counted" and never handed to the database.
 */
describe('VoteBatcher with a deadline', () => {
  it('answers every vote with a DatabaseTimeout; queued ones are never written', async () => {
    let transactions = 0;
    const writer = {
      transaction: () => {
        transactions++;
        return new Promise(() => {});
      },
    } as unknown as Database;
    const svc = {
      clock: { now: () => new Date() },
      log: { error() {}, warn() {} },
    } as unknown as Services;
    const batcher = new VoteBatcher(svc, writer, 1, 1_000, 50);
    const vote = (voter: string) =>
      ({ proposalId: 'p', daoId: 'd', voterAddress: voter }) as unknown as VoteRequest;

    const first = batcher.submit(vote('0x1')).catch((e: unknown) => e);
    // the first batch is in flight (one at a time here): the next votes queue behind it
    await until(() => transactions === 1);
    const queued = [batcher.submit(vote('0x2')), batcher.submit(vote('0x3'))].map((p) =>
      p.catch((e: unknown) => e),
    );
    const stuck = await first;
    expect(stuck).toBeInstanceOf(DatabaseTimeout);
    expect((stuck as Error).message).toMatch(/may have counted/);
    for (const e of await Promise.all(queued)) {
      expect(e).toBeInstanceOf(DatabaseTimeout);
      expect((e as Error).message).toMatch(/not counted/);
    }
    expect(transactions).toBe(1);
  });
});

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}
