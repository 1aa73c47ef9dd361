import { type EmailTransport, processOutbox, type Services } from '@plenum/core';
import { Resend } from 'resend';

export function resendTransport(apiKey: string): EmailTransport {
  const client = new Resend(apiKey);
  return async (mail) => {
    const { error } = await client.emails.send({
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      ...(mail.headers ? { headers: mail.headers } : {}),
    });
    if (error) throw new Error(`${error.name}: ${error.message}`);
  };
}

/** Polls the stored outbox; retries with backoff live in processOutbox. */
export function startMailWorker(svc: Services, transport: EmailTransport | null, intervalMs = 1000) {
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      while (!stopped && (await processOutbox(svc, { transport })) > 0) {
        // drain what is due
      }
    } catch (err) {
      svc.log.warn({ err: (err as Error).message }, 'mail worker tick failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  void tick();
  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await new Promise((r) => setTimeout(r, 20));
    },
  };
}
