import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { apiClient } from './support/http';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('OpenAPI', () => {
  it('serves a valid OpenAPI 3.x document listing the REST paths', async () => {
    const res = await apiClient(t.url).get('/api/docs-json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    const result = await validate(structuredClone(res.body));
    expect(result.valid, JSON.stringify(result)).toBe(true);
    for (const p of [
      '/users',
      '/users/verify-email',
      '/users/resend-verification',
      '/auth/login',
      '/auth/siwe',
      '/auth/nonce',
      '/auth/logout',
      '/auth/me',
      '/auth/wallets',
      '/health',
    ]) {
      expect(Object.keys(res.body.paths), p).toContain(p);
    }
  });

  it("names an operation's error reasons beside their statuses", async () => {
    const res = await apiClient(t.url).get('/api/docs-json');
    const vote = res.body.paths['/votes'].post.responses;
    expect(vote['409'].description).toMatch(/reason .*ALREADY_VOTED/);
    expect(vote['403'].description).toMatch(/reason .*NOT_ELIGIBLE.*CSRF/);
    expect(vote['409'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBody');
    // the paths of governing over time, each with the reasons a client must handle
    const expected: [string, string, string, RegExp][] = [
      ['/daos/{daoId}', 'patch', '403', /NOT_DAO_ADMIN/],
      ['/daos/{daoId}/history', 'get', '404', /Not found/],
      ['/daos/{daoId}/roles/{address}', 'put', '409', /OWNER_ROLE/],
      ['/daos/{daoId}/roles/{address}', 'delete', '403', /NOT_DAO_ADMIN/],
      ['/daos/{daoId}/roles', 'get', '404', /Not found/],
      ['/daos/{daoId}/owner', 'post', '409', /ALREADY_OWNER/],
      ['/daos/{daoId}/owner/accept', 'post', '409', /NO_PENDING_TRANSFER/],
      ['/daos/{daoId}/owner/pending', 'delete', '409', /NO_PENDING_TRANSFER/],
      ['/daos/{daoId}/permissions/{address}', 'get', '404', /Not found/],
      ['/daos/{daoId}/members/bulk', 'post', '409', /DAO_NOT_ACTIVE/],
      ['/admin/daos/{daoId}/reject', 'post', '409', /DAO_NOT_PENDING/],
      ['/proposals', 'post', '403', /NOT_ALLOWED_TO_PROPOSE/],
      ['/proposals', 'post', '409', /TOO_MANY_ACTIVE_PROPOSALS/],
      ['/proposals/{proposalId}/cancel', 'post', '409', /PROPOSAL_CLOSED/],
      ['/proposals/{proposalId}', 'patch', '409', /PROPOSAL_NOT_PENDING/],
      ['/proposals/{proposalId}/history', 'get', '404', /Not found/],
      ['/auth/wallets/{address}', 'delete', '409', /WALLET_IN_USE.*LAST_SIGN_IN_METHOD/],
      ['/auth/passkeys/{id}', 'delete', '409', /LAST_SIGN_IN_METHOD/],
      ['/auth/passkeys/register', 'post', '400', /PASSKEY_VERIFICATION_FAILED/],
      ['/auth/passkeys/register', 'post', '409', /PASSKEY_ALREADY_REGISTERED/],
      ['/auth/passkeys/login', 'post', '401', /PASSKEY_INVALID.*PASSKEY_COUNTER_INVALID/],
      ['/auth/login/mfa', 'post', '401', /PASSKEY_INVALID/],
    ];
    for (const [path, method, status, reason] of expected)
      expect(
        res.body.paths[path]?.[method]?.responses?.[status]?.description,
        `${method} ${path} ${status}`,
      ).toMatch(reason);
  });

  it('serves the interactive docs page and its assets', async () => {
    const page = await fetch(`${t.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui-bundle.js');
    const js = await fetch(`${t.url}/api/docs/swagger-ui-bundle.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
  });
});
