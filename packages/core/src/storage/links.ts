import { storageLinks } from '@plenum/db';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { AppError, notFound } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { hashToken, newToken } from '../shared/tokens';
import { parseCid } from './cid';
import type { StorageServices } from './runtime';
import { readAccess, requireReadable } from './visibility';

type LinkRow = typeof storageLinks.$inferSelect;

/** the path a link's URL takes on API_URL; the token is all it carries (docs/storage.md, "Signed links") */
export const LINK_PATH = '/ipfs/shared/';

const linkView = (r: LinkRow) => ({
  id: r.id,
  cid: r.cid,
  expiresAt: r.expiresAt.toISOString(),
  revokedAt: r.revokedAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
});

/**
 * POST /ipfs/links: a URL that serves the file without credentials for `expiresIn` seconds. Only a caller
 * who may read the file makes one (a file they may not read is the same 404 as an absent one). The URL's
 * token is 32 random bytes; only its SHA-256 is stored.
 */
export async function createLink(
  svc: StorageServices,
  params: { userId: string; cid: string; expiresIn: number },
) {
  const { text: cid } = parseCid(params.cid);
  await requireReadable(svc, { cid, userId: params.userId });
  const token = newToken();
  const now = svc.clock.now();
  const expiresAt = new Date(now.getTime() + params.expiresIn * 1000);
  const [row] = await svc.db
    .insert(storageLinks)
    .values({ tokenHash: hashToken(token), cid, userId: params.userId, expiresAt, createdAt: now })
    .returning();
  const base = svc.config.storage.publicUrl.replace(/\/+$/, '');
  return { id: row!.id, cid, url: `${base}${LINK_PATH}${token}`, expiresAt: expiresAt.toISOString() };
}

/** GET /ipfs/links: the caller's links (to one CID when given), newest first; never their tokens */
export async function listLinks(svc: StorageServices, params: { userId: string; cid?: string | undefined }) {
  const cid = params.cid === undefined ? undefined : parseCid(params.cid).text;
  const rows = await svc.db
    .select()
    .from(storageLinks)
    .where(and(eq(storageLinks.userId, params.userId), cid ? eq(storageLinks.cid, cid) : undefined))
    .orderBy(desc(storageLinks.createdAt), desc(storageLinks.id))
    .limit(1000);
  return rows.map(linkView);
}

/** DELETE /ipfs/links/{id}: the caller's link stops working at once (403 LINK_REVOKED); idempotent */
export async function revokeLink(svc: StorageServices, params: { userId: string; id: string }) {
  if (!isUuid(params.id)) throw notFound('No such link');
  const where = and(eq(storageLinks.id, params.id), eq(storageLinks.userId, params.userId));
  await svc.db
    .update(storageLinks)
    .set({ revokedAt: svc.clock.now() })
    .where(and(where, isNull(storageLinks.revokedAt)));
  const [row] = await svc.db.select().from(storageLinks).where(where).limit(1);
  if (!row) throw notFound('No such link');
  return linkView(row);
}

/**
 * The CID a link's token opens, and the user whose right it reads with: an unknown token is a 404, a
 * revoked link 403 LINK_REVOKED, an expired one 403 LINK_EXPIRED. The maker must still be allowed to
 * read the file (else 404, as if absent): a link never outlives its maker's access.
 */
export async function openLink(svc: StorageServices, params: { token: string }) {
  const token = params.token;
  const unknown = () => notFound('No such link');
  if (!token || token.length > 200) throw unknown();
  const [row] = await svc.db
    .select()
    .from(storageLinks)
    .where(eq(storageLinks.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) throw unknown();
  if (row.revokedAt) throw new AppError('FORBIDDEN', 'This link was revoked', { reason: 'LINK_REVOKED' });
  if (row.expiresAt.getTime() <= svc.clock.now().getTime())
    throw new AppError('FORBIDDEN', 'This link has expired', { reason: 'LINK_EXPIRED' });
  const access = await readAccess(svc.db, { cid: row.cid, userId: row.userId });
  if (access === 'denied') throw unknown();
  return { cid: row.cid, userId: row.userId, public: access === 'public' };
}
