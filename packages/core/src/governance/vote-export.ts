import { votes } from '@plenum/db';
import { and, asc, eq, gt, gte, isNull, lte, or, sql } from 'drizzle-orm';
import type { Services } from '../services';
import { csvRow } from '../shared/csv';
import { conflict } from '../shared/errors';
import { requireProposal } from './rows';
import { type VoteView, voteView } from './serialize';
import { ensureCurrentStatus } from './status-automation';
import { canonicalChoice } from './systems';
import { resultsHiddenNow } from './vote-visibility';

/**
 * The votes of a proposal as a file (docs/governance.md, "Exporting the votes"): every counted vote,
 * oldest first by (createdAt, voteId), read in keyset-paged chunks and handed to the caller chunk by chunk,
 * so neither core nor the route ever holds more than one chunk. CSV and JSON text are formatted here
 * (pure helpers below); the route streams them.
 */

export const VOTE_EXPORT_FORMATS = ['csv', 'json'] as const;
export type VoteExportFormat = (typeof VOTE_EXPORT_FORMATS)[number];

/** rows per keyset page */
export const VOTE_EXPORT_CHUNK = 1_000;

/** one vote of the export; the CSV header is these keys in this order */
export interface ExportedVote {
  voteId: string;
  /** the voter's address (EIP-55) */
  voter: string;
  /** the ballot as the votes list shows it; in CSV an array or object ballot is its canonical JSON text */
  choice: string | string[] | Record<string, number>;
  /** decimal string, exact: ownWeight + delegatedWeight (docs/governance.md, "Counting") */
  weight: string;
  ownWeight: string;
  delegatedWeight: string;
  comment: string;
  /** createdAt, ISO 8601 UTC */
  time: string;
  /** EIP-712 signature of a signed vote, else null */
  signature: string | null;
  /** the signed Unix-seconds timestamp of a signed vote, else null */
  signedTimestamp: number | null;
}

export const VOTE_EXPORT_COLUMNS = [
  'voteId',
  'voter',
  'choice',
  'weight',
  'ownWeight',
  'delegatedWeight',
  'comment',
  'time',
  'signature',
  'signedTimestamp',
] as const satisfies readonly (keyof ExportedVote)[];

/** a vote as the votes list shows it, as a row of the export */
export function exportedVote(v: VoteView): ExportedVote {
  return {
    voteId: v.voteId,
    voter: v.voterAddress,
    // never hidden here: hidden results are refused before any row is read
    choice: v.choice!,
    weight: v.weight,
    ownWeight: v.ownWeight,
    delegatedWeight: v.delegatedWeight,
    comment: v.comment,
    time: v.createdAt,
    signature: v.signature,
    signedTimestamp: v.typedData ? Number(v.typedData.message.timestamp) : null,
  };
}

export interface VoteExport {
  proposalId: string;
  /** `proposal-<id>-votes.csv` */
  filename(format: VoteExportFormat): string;
  /**
   * Reads every vote, oldest first, one chunk at a time: `onRows` is awaited before the next chunk is read
   * (the caller waits there for its client; no connection is held meanwhile). Stops when `onRows`
   * throws or `signal` aborts (the rejection is the signal's reason). Resolves with the number of rows.
   */
  read(params: {
    onRows(rows: ExportedVote[]): Promise<void>;
    signal?: AbortSignal;
    chunkSize?: number;
  }): Promise<number>;
}

type Reader = Pick<Services['db'], 'select'>;
type Cursor = { at: string; id: string };

/**
 * GET /votes/proposal/{proposalId}/export: 404 for an unknown proposal (checked before the caller sends
 * anything), then the export to read. Access is exactly the votes list's (GET /votes/proposal/{proposalId},
 * `listVotes`): public, the proposal brought up to date first (a proposal past its end is finalized, which
 * reveals hidden results). While results are hidden the export is refused, 409 RESULTS_HIDDEN, for
 * everyone: a file of blank choices is no export.
 *
 * Consistency (docs/governance.md, "Exporting the votes"): each page is its own short statement, so the
 * export never holds a connection (nor a transaction) while it waits for its client, however slowly that
 * client reads. The pages are bounded by the export's start time: the keys (createdAt, id) never change
 * and votes are never deleted, so every vote counted at the start is read exactly once, in order (a
 * replaced vote by its replacedAt), and none cast after it. Once a proposal is closed nothing changes, and
 * the file is exactly its final votes.
 */
export async function openVoteExport(svc: Services, params: { proposalId: string }): Promise<VoteExport> {
  const p = await ensureCurrentStatus(svc, await requireProposal(svc.db, params.proposalId));
  // hidden results cannot be exported before the end (docs/governance.md, "Hidden results")
  if (resultsHiddenNow(p))
    throw conflict(
      `The votes of this proposal are hidden until voting ends (${p.endTime.toISOString()})`,
      'RESULTS_HIDDEN',
    );
  // open or ended, every counted vote in full: the votes list's view of a proposal whose results show
  const view = voteView;
  return {
    proposalId: p.id,
    filename: (format) => `proposal-${p.id}-votes.${format}`,
    async read({ onRows, signal, chunkSize = VOTE_EXPORT_CHUNK }) {
      const readAll = async (db: Reader, until: Date) => {
        let cursor: Cursor | null = null;
        let total = 0;
        for (;;) {
          signal?.throwIfAborted();
          const rows = await chunk(db, p.id, cursor, until, chunkSize);
          signal?.throwIfAborted();
          if (rows.length) await onRows(rows.map(({ row }) => exportedVote(view(row))));
          total += rows.length;
          if (rows.length < chunkSize) return total;
          const last = rows[rows.length - 1]!;
          cursor = { at: last.at, id: last.row.id };
        }
      };
      return readAll(svc.db, svc.clock.now());
    },
  };
}

/**
 * One keyset page after `cursor` (its exact created_at as text, so microseconds are never lost) of the
 * votes counted at `until` (docs/governance.md, "Changing a vote"): cast by then and not replaced by then,
 * so a vote changed during the export still appears once, as it was at the start.
 */
async function chunk(db: Reader, proposalId: string, cursor: Cursor | null, until: Date, limit: number) {
  const conditions = [eq(votes.proposalId, proposalId)];
  if (cursor)
    conditions.push(
      // the first bound lets the (proposal_id, created_at) index start at the cursor
      gte(votes.createdAt, sql`${cursor.at}::timestamptz`),
      sql`(${votes.createdAt}, ${votes.id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`,
    );
  conditions.push(lte(votes.createdAt, until), or(isNull(votes.replacedAt), gt(votes.replacedAt, until))!);
  return db
    .select({ row: votes, at: sql<string>`${votes.createdAt}::text` })
    .from(votes)
    .where(and(...conditions))
    .orderBy(asc(votes.createdAt), asc(votes.id))
    .limit(limit);
}

// ---- formats (pure) ----

/** the CSV header row */
export const csvHeader = () => csvRow(VOTE_EXPORT_COLUMNS);

/** CSV records, each ending with CRLF */
export const csvRecords = (rows: ExportedVote[]) =>
  rows
    .map((r) =>
      csvRow(
        VOTE_EXPORT_COLUMNS.map((c) => {
          const v = r[c];
          return typeof v === 'object' && v !== null ? canonicalChoice(v) : v;
        }),
      ),
    )
    .join('');

/**
 * The JSON export is one array, written in pieces: `jsonOpen`, then each chunk's elements (`first` for the
 * chunk that starts the array), then `jsonClose`. One element per line.
 */
export const jsonOpen = () => '[';
export const jsonElements = (rows: ExportedVote[], first: boolean) =>
  (first ? '\n' : ',\n') + rows.map((r) => JSON.stringify(r)).join(',\n');
export const jsonClose = (empty: boolean) => (empty ? ']\n' : '\n]\n');
