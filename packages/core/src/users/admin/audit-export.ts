import { auditLog } from '@plenum/db';
import { and, lte, type SQL, sql } from 'drizzle-orm';
import type { Services } from '../../services';
import { csvRow } from '../../shared/csv';
import { type AuditEntry, type AuditFilters, auditConditions, auditEntries, auditRows } from './audit-log';

/**
 * GET /admin/audit-log.csv (docs/users.md, "Administration"): the filtered audit log as CSV, newest first,
 * read in keyset pages and handed to the caller page by page, so neither core nor the route holds more than
 * one page. Each page is its own short statement (no connection held while the client reads); the pages
 * are bounded by the export's start time, so rows written during the export are not in it.
 */

export const AUDIT_EXPORT_CHUNK = 500;

export const AUDIT_EXPORT_COLUMNS = [
  'createdAt',
  'action',
  'actorId',
  'actorEmail',
  'targetType',
  'targetId',
  'targetEmail',
  'targetName',
  'reason',
  'details',
] as const satisfies readonly (keyof AuditEntry)[];

export const auditCsvHeader = () => csvRow(AUDIT_EXPORT_COLUMNS);

/** CSV records of entries; `details` as its JSON text */
export const auditCsvRecords = (entries: AuditEntry[]) =>
  entries
    .map((e) =>
      csvRow(
        AUDIT_EXPORT_COLUMNS.map((c) =>
          c === 'details' ? (e.details ? JSON.stringify(e.details) : null) : e[c],
        ),
      ),
    )
    .join('');

export interface AuditExportReader {
  filename: string;
  /** every matching row, newest first; `onRows` is awaited before the next page is read */
  read(params: {
    onRows(entries: AuditEntry[]): Promise<void>;
    signal?: AbortSignal;
    chunkSize?: number;
  }): Promise<number>;
}

export function openAuditExport(
  svc: Pick<Services, 'db' | 'clock'>,
  filters: AuditFilters,
): AuditExportReader {
  const until = svc.clock.now();
  const base = [...auditConditions(filters), lte(auditLog.createdAt, until)];
  return {
    filename: `audit-log-${until.toISOString().slice(0, 10)}.csv`,
    async read({ onRows, signal, chunkSize = AUDIT_EXPORT_CHUNK }) {
      let cursor: { at: string; id: string } | null = null;
      let total = 0;
      for (;;) {
        signal?.throwIfAborted();
        const conditions: SQL[] = cursor
          ? [
              ...base,
              sql`(${auditLog.createdAt}, ${auditLog.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`,
            ]
          : base;
        const rows = await auditRows(svc, and(...conditions)).limit(chunkSize);
        signal?.throwIfAborted();
        if (rows.length) await onRows(await auditEntries(svc, rows));
        total += rows.length;
        if (rows.length < chunkSize) return total;
        const last = rows[rows.length - 1]!;
        // the time as text: a JS Date would lose its microseconds and skip or repeat rows
        cursor = { at: last.at, id: last.entry.id };
      }
    },
  };
}
