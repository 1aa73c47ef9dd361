import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startTestApp, TEST_DB } from './support/app';
import { activeUser } from './support/factories';
import { apiClient } from './support/http';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '..');

describe('admin command line', () => {
  it.runIf(TEST_DB === 'postgres')(
    'grants and revokes admin by email, and writes the audit log',
    async () => {
      const t = await startTestApp();
      try {
        const api = apiClient(t.url);
        const user = await activeUser(api);
        const env = { ...process.env, DATABASE_URL: t.databaseUrl!, LOG_LEVEL: 'silent' };
        const cli = (...args: string[]) =>
          run(process.execPath, ['--enable-source-maps', 'dist/admin.js', ...args], { cwd: serverDir, env });
        const granted = await cli('grant', user.email.toUpperCase());
        expect(granted.stdout).toContain('is now admin');
        expect((await api.get('/auth/me', { token: user.token })).body.user.role).toBe('admin');
        await cli('revoke', user.email);
        expect((await api.get('/auth/me', { token: user.token })).body.user.role).toBe('user');
        await expect(cli('grant', 'nobody@example.org')).rejects.toMatchObject({ code: 1 });
        await expect(cli('promote')).rejects.toMatchObject({ code: 2 });
      } finally {
        await t.close();
      }
    },
    // four cold starts of the compiled command (dist/admin.js, built by the tests' global setup) on a busy machine
    240_000,
  );
});
