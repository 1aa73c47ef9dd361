import { passkeys, users } from '@plenum/db';
import { and, asc, eq } from 'drizzle-orm';
import { enqueueEmail } from '../../mail/outbox';
import { passkeyEmail } from '../../mail/templates';
import type { Services } from '../../services';
import { conflict, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { recordAccountEvent } from '../activity';
import type { Principal, SessionClient } from '../sessions';
import { countSignInMethods, lockAccount } from '../sign-in-methods';
import { assertSession } from '../user-sessions';

/** a passkey as its owner sees it (docs/accounts.md, "Passkeys"): never the key or the counter */
export const passkeyView = (p: typeof passkeys.$inferSelect) => ({
  id: p.id,
  name: p.name,
  createdAt: p.createdAt.toISOString(),
  lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
  ...(p.transports?.length ? { transports: p.transports } : {}),
  backedUp: p.backedUp,
});

/** GET /auth/passkeys: the caller's passkeys, oldest first */
export async function listPasskeys(svc: Pick<Services, 'db'>, params: { principal: Principal }) {
  const rows = await svc.db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, params.principal.userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  return { items: rows.map(passkeyView) };
}

/**
 * DELETE /auth/passkeys/{id}: another account's passkey is a 404 like an unknown one; the account's last
 * way to sign in is refused (409 LAST_SIGN_IN_METHOD), counted under the account's lock so two removals
 * at once cannot both pass. The owner is mailed.
 */
export async function deletePasskey(
  svc: Services,
  params: { principal: Principal; id: string; client?: SessionClient | undefined },
) {
  const { principal } = params;
  assertSession(principal);
  if (!isUuid(params.id)) throw notFound('No such passkey');
  await svc.db.transaction(async (tx) => {
    await lockAccount(tx, principal.userId);
    const [passkey] = await tx
      .select()
      .from(passkeys)
      .where(and(eq(passkeys.id, params.id), eq(passkeys.userId, principal.userId)));
    if (!passkey) throw notFound('No such passkey');
    if ((await countSignInMethods(tx, principal.userId)) <= 1)
      throw conflict(
        'This passkey is the only way to sign in to this account: set a password or add another first',
        'LAST_SIGN_IN_METHOD',
      );
    await tx.delete(passkeys).where(eq(passkeys.id, passkey.id));
    await recordAccountEvent(tx, {
      userId: principal.userId,
      kind: 'factor_removed',
      detail: { kind: 'passkey', name: passkey.name },
      ...params.client,
      at: svc.clock.now(),
    });
    const [user] = await tx.select().from(users).where(eq(users.id, principal.userId));
    if (user)
      await enqueueEmail(tx, {
        to: user.email,
        ...passkeyEmail({
          appUrl: svc.config.appUrl,
          firstName: user.firstName,
          change: 'removed',
          name: passkey.name,
        }),
      });
  });
}
