import { ManualClock } from '@plenum/core';
import { auditLog } from '@plenum/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { activeUser, type TestUser } from './support/factories';
import { type ApiClient, apiClient } from './support/http';

/**
 * The audit log's filters and its CSV export (docs/users.md, "Administration"): action, actor, target,
 * from, to, validated; the export streams the same rows as CSV, RFC 4180 quoting, formula cells defused.
 */
const ADMIN = 'audit-admin@example.org';
const clock = new ManualClock(new Date('2026-05-10T12:00:00Z'));
let t: TestApp;
let api: ApiClient;
let admin: TestUser;
let target: TestUser;
const N = 1_234;

beforeAll(async () => {
  t = await startTestApp({ clock, env: { RATE_LIMIT_DISABLED: 'true', ADMIN_EMAILS: ADMIN } });
  api = apiClient(t.url);
  [admin, target] = await Promise.all([activeUser(api, { email: ADMIN }), activeUser(api)]);
  // many rows over several days, straight into the table: one action per kind, some tricky reasons
  const base = Date.parse('2026-05-01T00:00:00Z');
  await t.app.svc.db.insert(auditLog).values(
    Array.from({ length: N }, (_, i) => ({
      actorId: i % 2 ? admin.id : null,
      action: i % 3 === 0 ? 'user.suspend' : 'dao.approve',
      targetType: i % 3 === 0 ? 'user' : 'dao',
      targetId: i % 3 === 0 ? target.id : `dao-${i % 7}`,
      reason: i === 5 ? '=HYPERLINK("http://evil")' : i === 6 ? 'a, "quoted"\nline' : null,
      details: i === 7 ? { note: '@SUM(A1)' } : null,
      // one every 10 minutes from 1 May: up to about 9 May
      createdAt: new Date(base + i * 600_000),
    })),
  );
});
afterAll(() => t?.close());

const list = (query: string) => api.get(`/admin/audit-log?${query}`, { token: admin.token });
const csv = (query: string, token = admin.token) => api.get(`/admin/audit-log.csv?${query}`, { token });

/** RFC 4180 parser for the test: records of fields */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('GET /admin/audit-log filters', () => {
  it('filters by action, actor (id or email), target (id or a user’s email) and time, together', async () => {
    const byAction = await list('action=user.suspend&limit=1');
    expect(byAction.status, JSON.stringify(byAction.body)).toBe(200);
    expect(byAction.body.pagination.total).toBe(Math.ceil(N / 3));
    expect((await list(`actor=${admin.id}&limit=1`)).body.pagination.total).toBe(Math.floor(N / 2));
    expect((await list(`actor=${ADMIN.toUpperCase()}&limit=1`)).body.pagination.total).toBe(
      Math.floor(N / 2),
    );
    expect((await list(`target=${encodeURIComponent(target.email)}&limit=1`)).body.pagination.total).toBe(
      Math.ceil(N / 3),
    );
    expect((await list('target=dao-3&limit=1')).body.pagination.total).toBeGreaterThan(0);
    expect((await list('actor=nobody@example.org&limit=1')).body.pagination.total).toBe(0);
    // 2 May as a day: 144 rows of ten minutes
    const day = await list('from=2026-05-02&to=2026-05-02&limit=200');
    expect(day.body.pagination.total).toBe(144);
    expect(day.body.items.every((e: { createdAt: string }) => e.createdAt.startsWith('2026-05-02'))).toBe(
      true,
    );
    const instants = await list('from=2026-05-02T00:00:00Z&to=2026-05-02T01:00:00Z&limit=50');
    expect(instants.body.pagination.total).toBe(7); // both ends included
  });

  it('refuses a bad date and from after to with 400 VALIDATION_FAILED, for the list and the export', async () => {
    for (const q of ['from=yesterday', 'to=2026-13-40', 'from=2026-05-03&to=2026-05-02']) {
      for (const res of [await list(q), await csv(q)]) {
        expect(res.status, `${q}: ${res.text}`).toBe(400);
        expect(res.body.reason).toBe('VALIDATION_FAILED');
      }
    }
    // the same day on both sides is one day, not an empty range
    expect((await list('from=2026-05-02&to=2026-05-02')).status).toBe(200);
  });
});

describe('GET /admin/audit-log.csv', () => {
  it('streams every matching row, newest first, as the list has them, with a header', async () => {
    const res = await csv('');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(
      /attachment; filename="audit-log-2026-05-10\.csv"/,
    );
    const rows = parseCsv(res.text);
    expect(rows[0]).toEqual([
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
    ]);
    const all = await list('limit=200&page=1');
    expect(rows.length - 1).toBe(all.body.pagination.total);
    // more than one page of the export: ids in the list's order
    const firstPage = all.body.items.map((e: { createdAt: string }) => e.createdAt);
    expect(rows.slice(1, 201).map((r) => r[0])).toEqual(firstPage);
    const times = rows.slice(1).map((r) => Date.parse(r[0]!));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('quotes per RFC 4180 and defuses cells a spreadsheet would run', async () => {
    const rows = parseCsv((await csv('to=2026-05-01T01:10:00Z')).text);
    const reasons = rows.map((r) => r[8]);
    expect(reasons).toContain(`'=HYPERLINK("http://evil")`);
    expect(reasons).toContain('a, "quoted"\nline');
    expect(rows.map((r) => r[9])).toContain(`{"note":"@SUM(A1)"}`);
  });

  it('applies the filters, and is for admins only', async () => {
    const rows = parseCsv(
      (await csv(`action=user.suspend&target=${target.id}&from=2026-05-02&to=2026-05-02`)).text,
    );
    expect(rows.length - 1).toBe(48);
    expect(rows.slice(1).every((r) => r[1] === 'user.suspend' && r[6] === target.email)).toBe(true);
    expect((await csv('', target.token)).status).toBe(403);
    expect((await api.get('/admin/audit-log.csv')).status).toBe(401);
  });
});
