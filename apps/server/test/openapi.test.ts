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
