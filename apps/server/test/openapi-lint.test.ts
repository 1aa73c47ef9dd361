import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB, type TestApp } from './support/app';
import { apiClient } from './support/http';

/**
 * The served OpenAPI document passes a standard linter (docs/api.md, "The OpenAPI document"): `redocly
 * lint` with its `recommended` rules reports no error, and only the warnings explained there.
 */
const EXPLAINED_WARNINGS = new Set([
  'no-ambiguous-paths #/paths/~1daos~1{daoId}~1status',
  'no-ambiguous-paths #/paths/~1daos~1{daoId}~1members',
  'no-ambiguous-paths #/paths/~1daos~1{daoId}~1history',
  'no-ambiguous-paths #/paths/~1daos~1{daoId}~1roles',
  'no-ambiguous-paths #/paths/~1daos~1{daoId}~1owner',
  'no-ambiguous-paths #/paths/~1daos~1{daoId}~1delegation',
  'no-ambiguous-paths #/paths/~1daos~1{daoId}~1delegates',
  'no-ambiguous-paths #/paths/~1proposals~1{proposalId}~1cancel',
  'no-ambiguous-paths #/paths/~1proposals~1{proposalId}~1history',
  'no-ambiguous-paths #/paths/~1proposals~1{proposalId}~1comments',
  'no-ambiguous-paths #/paths/~1proposals~1{proposalId}~1record',
  'no-ambiguous-paths #/paths/~1proposals~1{proposalId}~1record.car',
  'no-ambiguous-paths #/paths/~1votes~1proposal~1{proposalId}',
  'no-server-example.com #/servers/0/url',
  'operation-2xx-response #/paths/~1auth~1oidc~1{provider}~1start/get/responses',
  'operation-2xx-response #/paths/~1auth~1oidc~1{provider}~1callback/get/responses',
]);

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
let t: TestApp;
let dir: string;
// the document does not depend on the database: one project lints it
const onPglite = TEST_DB === 'pglite';
beforeAll(async () => {
  if (!onPglite) return;
  t = await startTestApp();
  dir = mkdtempSync(path.join(tmpdir(), 'plenum-openapi-'));
});
afterAll(async () => {
  if (!onPglite) return;
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

describe.runIf(onPglite)('the OpenAPI document under redocly lint (recommended)', () => {
  it('has no error, and only the explained warnings', async () => {
    const res = await apiClient(t.url).get('/api/docs-json');
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(res.body));
    const out = await run(
      path.join(root, 'node_modules/.bin/redocly'),
      ['lint', file, '--extends', 'recommended', '--format', 'json'],
      { cwd: dir, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const { problems } = JSON.parse(out.stdout) as { problems: Problem[] };
    const line = (p: Problem) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`;
    const errors = problems.filter((p) => p.severity === 'error').map(line);
    expect(errors, `${errors.length} errors`).toEqual([]);
    const unexplained = problems
      .filter(
        (p) => p.severity === 'warn' && !EXPLAINED_WARNINGS.has(`${p.ruleId} ${p.location[0]?.pointer}`),
      )
      .map(line);
    expect(unexplained, `${unexplained.length} warnings not explained in docs/api.md`).toEqual([]);
    const docs = readFileSync(path.join(root, 'docs/api.md'), 'utf8');
    for (const rule of new Set([...EXPLAINED_WARNINGS].map((w) => w.split(' ')[0]!)))
      expect(docs, `docs/api.md explains ${rule}`).toContain(`\`${rule}\``);
  });
});
