import { verificationTokens } from '@plenum/db';
import { enqueueEmail } from '../mail/outbox';
import { verificationEmail } from '../mail/templates';
import type { Services } from '../services';
import { hashToken, newToken } from '../shared/tokens';

/**
 * Here, below auth and users, because both create accounts whose address needs proving: registration
 * (docs/users.md, "Email verification") and a first sign-in with an OpenID provider that did not verify
 * the address (docs/accounts.md, "Signing in with OpenID Connect"). A new verification token, mailed
 * through the outbox in the same transaction.
 */
export async function issueVerification(
  svc: Services,
  tx: Parameters<typeof enqueueEmail>[0],
  user: { id: string; email: string; firstName: string },
) {
  const token = newToken();
  const expiresAt = new Date(svc.clock.now().getTime() + svc.config.verificationTokenTtlMs);
  await tx.insert(verificationTokens).values({ userId: user.id, tokenHash: hashToken(token), expiresAt });
  const mail = verificationEmail({
    appUrl: svc.config.appUrl,
    firstName: user.firstName,
    token,
    expiresInHours: Math.round(svc.config.verificationTokenTtlMs / 3_600_000),
  });
  await enqueueEmail(tx, { to: user.email, subject: mail.subject, text: mail.text, html: mail.html });
}
