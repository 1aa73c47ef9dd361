import { type DbOrTx, emailOutbox } from '@plenum/db';
import { and, asc, desc, eq, lte, sql } from 'drizzle-orm';
import type { Services } from '../services';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** extra headers, e.g. List-Unsubscribe (docs/governance.md, "Notifications") */
  headers?: Record<string, string> | null;
}

/** Stored in the caller's transaction: the email exists exactly when the change that caused it does. */
export async function enqueueEmail(db: DbOrTx, mail: OutgoingEmail) {
  await db.insert(emailOutbox).values(mail);
}

/** Delivers through a provider; throws when the provider refuses or is down. */
export type EmailTransport = (mail: OutgoingEmail & { from: string }) => Promise<void>;

export const MAX_ATTEMPTS = 8;
/** 2 s, 4 s, 8 s … capped at 10 min */
export const backoffMs = (attempts: number) => Math.min(2 ** attempts * 1000, 600_000);

/**
 * Sends due emails once. Rows are claimed with FOR UPDATE SKIP LOCKED, so several server instances
 * never send the same email twice. Without a transport (no provider configured) mail stays in the
 * development outbox as delivered.
 */
export async function processOutbox(
  svc: Services,
  params: { transport: EmailTransport | null; batch?: number | undefined },
): Promise<number> {
  const { transport, batch = 10 } = params;
  let processed = 0;
  await svc.db.transaction(async (tx) => {
    const now = svc.clock.now();
    const due = await tx
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.status, 'pending'), lte(emailOutbox.nextAttemptAt, now)))
      .orderBy(asc(emailOutbox.nextAttemptAt))
      .limit(batch)
      .for('update', { skipLocked: true });
    for (const mail of due) {
      processed++;
      try {
        if (transport) await transport({ ...mail, from: svc.config.mailFrom });
        await tx
          .update(emailOutbox)
          .set({ status: 'sent', sentAt: now, attempts: mail.attempts + 1 })
          .where(eq(emailOutbox.id, mail.id));
      } catch (err) {
        const attempts = mail.attempts + 1;
        const failed = attempts >= MAX_ATTEMPTS;
        svc.log.warn({ emailId: mail.id, attempts, err: (err as Error).message }, 'email delivery failed');
        await tx
          .update(emailOutbox)
          .set({
            attempts,
            status: failed ? 'failed' : 'pending',
            lastError: String((err as Error).message ?? err).slice(0, 500),
            nextAttemptAt: new Date(now.getTime() + backoffMs(attempts)),
          })
          .where(eq(emailOutbox.id, mail.id));
      }
    }
  });
  return processed;
}

/** The development outbox, newest first. */
export async function listOutbox(svc: Pick<Services, 'db'>, params: { limit?: number | undefined } = {}) {
  const { limit = 100 } = params;
  const rows = await svc.db
    .select()
    .from(emailOutbox)
    .orderBy(desc(emailOutbox.createdAt), desc(sql`${emailOutbox.id}`))
    .limit(limit);
  return rows.map((m) => ({
    id: m.id,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    createdAt: m.createdAt.toISOString(),
  }));
}
