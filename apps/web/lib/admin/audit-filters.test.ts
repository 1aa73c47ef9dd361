import { describe, expect, it } from 'vitest';
import { auditCsvUrl, badAuditRange, NO_AUDIT_FILTERS } from './audit-filters';

describe('audit filters', () => {
  it('sends only the filters that are set, trimmed and escaped', () => {
    expect(auditCsvUrl('http://api:4000', NO_AUDIT_FILTERS)).toBe('http://api:4000/admin/audit-log.csv');
    expect(
      auditCsvUrl('http://api:4000', { ...NO_AUDIT_FILTERS, action: ' user.suspend ', actor: 'a+b@x.org' }),
    ).toBe('http://api:4000/admin/audit-log.csv?action=user.suspend&actor=a%2Bb%40x.org');
  });

  it('refuses a range that ends before it starts; one day on both sides is a day', () => {
    expect(badAuditRange({ ...NO_AUDIT_FILTERS, from: '2026-05-03', to: '2026-05-02' })).toBe(true);
    expect(badAuditRange({ ...NO_AUDIT_FILTERS, from: '2026-05-02', to: '2026-05-02' })).toBe(false);
    expect(badAuditRange({ ...NO_AUDIT_FILTERS, from: '2026-05-02' })).toBe(false);
  });
});
