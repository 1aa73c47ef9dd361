import { type EmailTransport, ManualClock, processOutbox } from '@plenum/core';
import { emailOutbox } from '@plenum/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { register, uniqueEmail } from './support/factories';
import { apiClient } from './support/http';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('email outbox', () => {
  it('keeps a registration’s mail while the provider is down and delivers it later, with backoff', async () => {
    await t.app.mailWorker.stop(); // drive delivery by hand
    const email = uniqueEmail();
    expect((await register(apiClient(t.url), { email })).status).toBe(201);

    const clock = new ManualClock();
    const svc = { ...t.app.svc, clock };
    const sent: string[] = [];
    let providerUp = false;
    const transport: EmailTransport = async (mail) => {
      if (!providerUp) throw new Error('provider down');
      sent.push(mail.to);
    };
    const row = async () =>
      (await t.app.svc.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)))[0]!;

    await processOutbox(svc, { transport });
    let mail = await row();
    expect(mail.status).toBe('pending');
    expect(mail.attempts).toBe(1);
    expect(mail.lastError).toContain('provider down');
    const firstRetry = mail.nextAttemptAt.getTime();
    expect(firstRetry).toBeGreaterThan(clock.now().getTime());

    // not due yet: nothing happens
    await processOutbox(svc, { transport });
    expect((await row()).attempts).toBe(1);

    clock.set(firstRetry + 1);
    await processOutbox(svc, { transport });
    mail = await row();
    expect(mail.attempts).toBe(2);
    expect(mail.nextAttemptAt.getTime() - clock.now().getTime()).toBeGreaterThan(firstRetry - Date.now()); // backoff grows

    providerUp = true;
    clock.set(mail.nextAttemptAt.getTime() + 1);
    await processOutbox(svc, { transport });
    expect((await row()).status).toBe('sent');
    expect(sent).toEqual([email]);
  });

  it('hides the development outbox when an email provider is configured', async () => {
    const withProvider = await startTestApp({ env: { RESEND_API_KEY: 're_test_not_a_real_key' } });
    try {
      await withProvider.app.mailWorker.stop();
      const res = await apiClient(withProvider.url).get('/dev/outbox');
      expect(res.status).toBe(404);
      // and the API document no longer lists it
      const doc = (await apiClient(withProvider.url).get('/api/docs-json')).body;
      expect(Object.keys(doc.paths)).not.toContain('/dev/outbox');
      expect(Object.keys(doc.paths)).toContain('/users/resend-verification');
    } finally {
      await withProvider.close();
    }
  });
});
