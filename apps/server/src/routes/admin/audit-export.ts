import { type AuditEntry, auditCsvHeader, auditCsvRecords, openAuditExport } from '@plenum/core';
import { auditExportQuery } from '@plenum/validators';
import type { RouteContext } from '../../http/routes';
import { ExportBody } from '../../http/stream-body';

/**
 * GET /admin/audit-log.csv: the audit log, filtered as GET /admin/audit-log is, as a CSV download
 * (docs/users.md, "Administration"), streamed page by page as it is read, with backpressure: a large log
 * is never built in memory, and a slow client holds no database connection between pages.
 */
export async function exportAuditLog(rc: RouteContext) {
  const { reply, svc, log } = rc;
  // checked against the same schema before the handler ran (index.ts): this parse only trims
  const filters = auditExportQuery.parse(Object.fromEntries(rc.query.entries()));
  const reader = openAuditExport(svc, filters);
  reply.headers({
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${reader.filename}"`,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
  const body = new ExportBody();
  let started = false;
  const onRows = async (rows: AuditEntry[]) => {
    const text = auditCsvRecords(rows);
    await body.write(started ? text : auditCsvHeader() + text);
    started = true;
  };
  reader
    .read({ onRows, signal: body.gone.signal })
    .then(() => {
      if (!started) body.push(auditCsvHeader());
      body.finish();
    })
    .catch((err: unknown) => {
      if (body.gone.signal.aborted) {
        log.debug({ err }, 'audit log export ended early: the client went away');
        return;
      }
      log.error({ err }, 'audit log export failed');
      body.destroy(err instanceof Error ? err : new Error(String(err)));
    });
  return reply.send(body);
}
