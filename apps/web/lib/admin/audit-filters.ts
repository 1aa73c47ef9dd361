/** The audit log's filters as the admin page keeps them (docs/users.md, "Administration"). */
export interface AuditFilters {
  action: string;
  actor: string;
  target: string;
  /** YYYY-MM-DD (a date input's value); `to` includes that whole day */
  from: string;
  to: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = { action: '', actor: '', target: '', from: '', to: '' };

/** the filters that are set, trimmed: what the list query and the CSV link send */
export function auditFilterParams(f: AuditFilters): Partial<AuditFilters> {
  const out: Partial<AuditFilters> = {};
  for (const key of Object.keys(NO_AUDIT_FILTERS) as (keyof AuditFilters)[]) {
    const v = f[key].trim();
    if (v) out[key] = v;
  }
  return out;
}

/** a day range the API would refuse: from after to (the same day on both sides is one day) */
export const badAuditRange = (f: AuditFilters) => !!f.from && !!f.to && f.from > f.to;

/** GET /admin/audit-log.csv with the filters: a plain link, so the browser streams the download itself */
export const auditCsvUrl = (apiUrl: string, f: AuditFilters) => {
  const query = new URLSearchParams(auditFilterParams(f) as Record<string, string>).toString();
  return `${apiUrl}/admin/audit-log.csv${query ? `?${query}` : ''}`;
};
