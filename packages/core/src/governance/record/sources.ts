/**
 * A closed proposal's stored rows as the record builder's input (docs/governance.md, "The proposal
 * record"): the proposal and its revealed results read once; the electorate and the
 * ballots streamed in keyset pages, each page one short statement, so no connection or transaction is
 * held while the blocks are stored, and memory holds one page.
 */

import { type DbOrTx, proposalElectorate, votes } from '@plenum/db';
import { and, asc, eq, gte, isNotNull, isNull, sql } from 'drizzle-orm';
import { conflict } from '../../shared/errors';
import { resultsOf } from '../results';
import { isClosedStatus, requireProposal } from '../rows';
import type { RecordInput } from './build';

const PAGE = 1_000;

/** the builder's input for a closed proposal (without the attestor, which the caller holds) */
export async function recordInputOf(db: DbOrTx, proposalId: string): Promise<Omit<RecordInput, 'attest'>> {
  const proposal = await requireProposal(db, proposalId);
  if (!isClosedStatus(proposal.status))
    throw conflict('The proposal is still open: its record is made when it closes');
  return {
    proposal,
    results: await resultsOf(db, proposal, { reveal: true }),
    electorate: electorateOf(db, proposalId),
    ballots: ballotsOf(db, proposalId, 'counted'),
    replaced: ballotsOf(db, proposalId, 'replaced'),
  };
}

/**
 * The frozen electorate by lower-case address in byte order, the record's order whatever the database's
 * collation: the index proposal_electorate_record_order_idx has it, so each page is an index range.
 */
async function* electorateOf(db: DbOrTx, proposalId: string) {
  const key = sql`lower(${proposalElectorate.address}) collate "C"`;
  let after: string | null = null;
  for (;;) {
    const rows = await db
      .select({
        address: proposalElectorate.address,
        weight: proposalElectorate.weight,
        delegateAddress: proposalElectorate.delegateAddress,
      })
      .from(proposalElectorate)
      .where(
        and(
          eq(proposalElectorate.proposalId, proposalId),
          after === null ? undefined : sql`${key} > ${after}`,
        ),
      )
      .orderBy(key)
      .limit(PAGE);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.address.toLowerCase();
  }
}

/**
 * The counted or the replaced votes by (created_at, id), the cursor's created_at kept as text so its
 * microseconds are never lost (as the export pages: vote-export.ts)
 */
async function* ballotsOf(db: DbOrTx, proposalId: string, which: 'counted' | 'replaced') {
  let cursor: { at: string; id: string } | null = null;
  for (;;) {
    const rows: { row: typeof votes.$inferSelect; at: string }[] = await db
      .select({ row: votes, at: sql<string>`${votes.createdAt}::text` })
      .from(votes)
      .where(
        and(
          eq(votes.proposalId, proposalId),
          which === 'counted' ? isNull(votes.replacedAt) : isNotNull(votes.replacedAt),
          cursor ? gte(votes.createdAt, sql`${cursor.at}::timestamptz`) : undefined,
          cursor
            ? sql`(${votes.createdAt}, ${votes.id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(asc(votes.createdAt), asc(votes.id))
      .limit(PAGE);
    for (const r of rows) yield r.row;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1]!;
    cursor = { at: last.at, id: last.row.id };
  }
}
