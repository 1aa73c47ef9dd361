import { type DbOrTx, isUniqueViolation, wallets } from '@plenum/db';
import { and, asc, count, eq, ne } from 'drizzle-orm';
import type { Services } from '../services';
import { conflict, forbidden } from '../shared/errors';
import { fetchPage, type Page } from '../shared/pagination';
import { canonicalAddress } from './address';
import { verifySiwe } from './siwe/verify';

const view = (w: typeof wallets.$inferSelect) => ({
  address: w.address,
  isPrimary: w.isPrimary,
  linkedAt: w.linkedAt.toISOString(),
});

/** Links the wallet that signed the SIWE message to the signed-in user; a wallet belongs to one user. */
export async function linkWallet(
  svc: Services,
  params: { userId: string; message: string; signature: string },
) {
  const { address } = await verifySiwe(svc, params);
  try {
    return await svc.db.transaction(async (tx) => {
      const [existing] = await tx.select().from(wallets).where(eq(wallets.address, address)).limit(1);
      if (existing) throw conflict('This wallet is already linked to an account', 'WALLET_ALREADY_LINKED');
      const mine = await tx.select().from(wallets).where(eq(wallets.userId, params.userId)).limit(1);
      const [row] = await tx
        .insert(wallets)
        .values({ address, userId: params.userId, isPrimary: mine.length === 0, linkedAt: svc.clock.now() })
        .returning();
      return view(row!);
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict('This wallet is already linked to an account', 'WALLET_ALREADY_LINKED');
    throw err;
  }
}

export function listWallets(svc: Pick<Services, 'db'>, params: { userId: string }) {
  return walletsOf(svc.db, params.userId);
}

async function walletsOf(db: DbOrTx, userId: string) {
  const rows = await db
    .select()
    .from(wallets)
    .where(eq(wallets.userId, userId))
    .orderBy(asc(wallets.linkedAt));
  return rows.map(view);
}

/** GET /auth/wallets: the user's wallets in linking order, a page at a time (docs/api.md, "Lists"). */
export async function pageWallets(svc: Pick<Services, 'db'>, params: Page & { userId: string }) {
  const { db } = svc;
  const { userId } = params;
  const { rows, pagination } = await fetchPage(
    params,
    db
      .select()
      .from(wallets)
      .where(eq(wallets.userId, userId))
      .orderBy(asc(wallets.linkedAt), asc(wallets.address))
      .$dynamic(),
    db.select({ n: count() }).from(wallets).where(eq(wallets.userId, userId)),
  );
  return { items: rows.map(view), pagination };
}

/** The caller's wallets (canonical addresses): governance and storage writes act for one of these. */
export async function walletAddressesOf(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await db.select({ address: wallets.address }).from(wallets).where(eq(wallets.userId, userId));
  return rows.map((r) => r.address);
}

export async function primaryWalletOf(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ address: wallets.address })
    .from(wallets)
    .where(and(eq(wallets.userId, userId), eq(wallets.isPrimary, true)))
    .limit(1);
  return row?.address ?? null;
}

/** Throws 403 unless the address is one of the user's wallets (nobody acts for someone else's address). */
export async function assertOwnsAddress(db: DbOrTx, userId: string, address: string) {
  const [row] = await db
    .select({ address: wallets.address })
    .from(wallets)
    .where(and(eq(wallets.userId, userId), eq(wallets.address, address)))
    .limit(1);
  if (!row) throw forbidden(`${address} is not a wallet of the signed-in user`, 'NOT_YOUR_ADDRESS');
}

/**
 * Makes one of the caller's wallets the primary one (the owner recorded on their new pins). The user's
 * wallet rows are locked first, so two changes at once end with exactly one primary.
 */
export async function setPrimaryWallet(svc: Services, params: { userId: string; address: string }) {
  const address = canonicalAddress(params.address, 'address');
  return svc.db.transaction(async (tx) => {
    const mine = await tx.select().from(wallets).where(eq(wallets.userId, params.userId)).for('update');
    if (!mine.some((w) => w.address === address))
      throw forbidden(`${address} is not a wallet of the signed-in user`, 'NOT_YOUR_ADDRESS');
    await tx
      .update(wallets)
      .set({ isPrimary: false })
      .where(and(eq(wallets.userId, params.userId), ne(wallets.address, address)));
    await tx.update(wallets).set({ isPrimary: true }).where(eq(wallets.address, address));
    return { items: await walletsOf(tx, params.userId) };
  });
}
