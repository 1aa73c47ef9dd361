import { wallets } from '@plenum/db';
import { and, asc, eq } from 'drizzle-orm';
import { writeAudit } from '../audit/write-audit';
import { type DaoRunBy, daosRunBy } from '../governance/address-in-use';
import type { Services } from '../services';
import { AppError, conflict, type FieldIssue, notFound } from '../shared/errors';
import { canonicalAddress } from './address';
import { countSignInMethods, lockAccount } from './sign-in-methods';

/** one DAO the address runs, as an issue of the 409: the web app names it and links to it */
function heldIssue(d: DaoRunBy): FieldIssue {
  const params = { daoId: d.daoId, name: d.name };
  if (d.as === 'owner') return { path: '', message: `owner of “${d.name}”`, code: 'owns_dao', params };
  if (d.as === 'pendingOwner')
    return { path: '', message: `pending owner of “${d.name}”`, code: 'pending_dao_owner', params };
  return { path: '', message: `${d.as} of “${d.name}”`, code: 'dao_role', params: { ...params, role: d.as } };
}

/**
 * DELETE /auth/wallets/{address} (docs/accounts.md, "Unlinking a wallet"). Refused while the address runs
 * a DAO (409 WALLET_IN_USE, naming the DAOs) and when it is the account's last way to sign in (409
 * LAST_SIGN_IN_METHOD). The account's row is locked first: creating a DAO and accepting an ownership
 * share-lock it, so they either come first and are seen here, or come after and find the wallet gone.
 */
export async function unlinkWallet(svc: Services, params: { userId: string; address: string }) {
  const address = canonicalAddress(params.address, 'address');
  const now = svc.clock.now();
  await svc.db.transaction(async (tx) => {
    await lockAccount(tx, params.userId);
    const mine = await tx
      .select()
      .from(wallets)
      .where(eq(wallets.userId, params.userId))
      .orderBy(asc(wallets.linkedAt), asc(wallets.address))
      .for('update');
    const wallet = mine.find((w) => w.address === address);
    // someone else's wallet is as absent as no wallet at all: the answer tells nobody who holds it
    if (!wallet) throw notFound(`${address} is not a wallet of the signed-in user`);

    const held = await daosRunBy(tx, address);
    if (held.items.length) {
      const issues = held.items.map(heldIssue);
      const list = issues.map((i) => i.message).join('; ') + (held.more ? '; and more' : '');
      throw new AppError('CONFLICT', `${address} still runs DAOs, transfer first: ${list}`, {
        reason: 'WALLET_IN_USE',
        issues,
      });
    }
    if ((await countSignInMethods(tx, params.userId)) <= 1)
      throw conflict(
        'This wallet is the only way to sign in to this account: set a password first',
        'LAST_SIGN_IN_METHOD',
      );

    await tx.delete(wallets).where(eq(wallets.address, address));
    const next = mine.find((w) => w.address !== address);
    if (wallet.isPrimary && next)
      await tx
        .update(wallets)
        .set({ isPrimary: true })
        .where(and(eq(wallets.address, next.address), eq(wallets.userId, params.userId)));
    await writeAudit(tx, {
      actorId: params.userId,
      action: 'wallet.unlinked',
      targetId: params.userId,
      details: { address, ...(wallet.isPrimary && next ? { newPrimary: next.address } : {}) },
      at: now,
    });
  });
}
