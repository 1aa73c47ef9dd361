import { type DbOrTx, daos, type PinVisibility, pins } from '@plenum/db';
import { eq, sql } from 'drizzle-orm';
import { badRequest, forbidden } from '../shared/errors';
import type { PrivacySource, RootVisibility } from './block-privacy';
import { parseCid } from './cid';
import { failureOf } from './provider';
import type { StorageServices } from './runtime';

/** who may read a pinned CID (docs/storage.md, "Private and members-only files") */
export interface VisibilityChoice {
  visibility: PinVisibility;
  daoId: string | null;
}

export interface VisibilityRequest {
  visibility?: PinVisibility | undefined;
  daoId?: string | undefined;
}

/**
 * The reader's wallets give it the DAO: a member, the owner address, or a role (admin, moderator,
 * author). A holders-open token DAO counts its member list only: a token balance on the chain does not
 * open a file (docs/storage.md, "Private and members-only files").
 */
const memberOfDao = (userId: string, daoId: unknown) => sql`exists (
  select 1 from wallets w where w.user_id = ${userId} and (
    exists (select 1 from dao_members m where m.dao_id = ${daoId} and m.address = w.address)
    or exists (select 1 from daos d where d.id = ${daoId} and d.owner_address = w.address)
    or exists (select 1 from dao_roles r where r.dao_id = ${daoId} and r.address = w.address)))`;

/**
 * The visibility an upload or pin asks for, checked: `dao` needs a DAO that exists and that the caller
 * belongs to (403 NOT_A_MEMBER otherwise), so nobody files content under a DAO they are not in.
 * Absent: public.
 */
export async function resolveVisibility(
  db: DbOrTx,
  params: VisibilityRequest & { userId: string },
): Promise<VisibilityChoice> {
  const visibility = params.visibility ?? 'public';
  if (visibility !== 'dao') return { visibility, daoId: null };
  const daoId = params.daoId;
  if (!daoId)
    throw badRequest('daoId is required with visibility dao', [
      { path: 'daoId', message: 'required with visibility dao', code: 'dao_id_required' },
    ]);
  const [row] = await db
    .select({ id: daos.id, member: sql<boolean>`${memberOfDao(params.userId, daos.id)}` })
    .from(daos)
    .where(eq(daos.id, daoId))
    .limit(1);
  if (!row)
    throw badRequest('No such DAO', [{ path: 'daoId', message: 'no such DAO', code: 'invalid_value' }]);
  if (!row.member)
    throw forbidden('Only a member of the DAO can make a file members-only for it', 'NOT_A_MEMBER');
  return { visibility, daoId };
}

export type ReadAccess = 'public' | 'allowed' | 'denied';

/**
 * Whether `userId` (null: anonymous) may read `cid`: public when any public pin record holds it or no
 * record does; otherwise the owner of any of its records and, for a `dao` record, that DAO's members.
 * One query on the CID's index.
 */
export async function readAccess(
  db: DbOrTx,
  params: { cid: string; userId: string | null | undefined },
): Promise<ReadAccess> {
  const { cid, userId } = params;
  const allowed = userId
    ? sql`coalesce(bool_or(${pins.userId} = ${userId} or (${pins.visibility} = 'dao' and ${pins.daoId} is not null and ${memberOfDao(userId, pins.daoId)})), false)`
    : sql`false`;
  const [row] = await db
    .select({
      n: sql<number>`count(*)::int`,
      open: sql<boolean>`coalesce(bool_or(${pins.visibility} = 'public'), false)`,
      allowed: sql<boolean>`${allowed}`,
    })
    .from(pins)
    .where(eq(pins.cid, cid));
  if (!row || Number(row.n) === 0 || row.open) return 'public';
  return row.allowed ? 'allowed' : 'denied';
}

/**
 * The read paths' check: a CID the reader may not read is a 404 exactly like content no provider has
 * (the same error, so no answer tells a hidden file from an absent one). Returns whether it is public.
 */
export async function requireReadable(
  svc: StorageServices,
  params: { cid: string; userId: string | null | undefined },
): Promise<boolean> {
  const access = await readAccess(svc.db, params);
  if (access === 'denied') throw failureOf([], params.cid);
  // no record holds it, but it may be a block of a non-public DAG (a file inside a private folder, a
  // private file unpinned moments ago): the node's guard knows those blocks (docs/storage.md, "Private
  // and members-only files")
  if (access === 'public' && (await svc.storage.node.privacy?.hides(parseCid(params.cid).cid)))
    throw failureOf([], params.cid);
  return access === 'public';
}

/** what the embedded node's block guard reads from the pin records (block-privacy.ts) */
export function privacySource(db: DbOrTx, onError?: (err: unknown) => void): PrivacySource {
  return {
    ...(onError ? { onError } : {}),
    async visibilityOf(cid): Promise<RootVisibility> {
      const [row] = await db
        .select({
          n: sql<number>`count(*)::int`,
          open: sql<boolean>`coalesce(bool_or(${pins.visibility} = 'public'), false)`,
        })
        .from(pins)
        .where(eq(pins.cid, cid));
      if (!row || Number(row.n) === 0) return 'none';
      return row.open ? 'public' : 'restricted';
    },
    async roots() {
      const rows = await db
        .select({
          cid: pins.cid,
          open: sql<boolean>`bool_or(${pins.visibility} = 'public')`,
        })
        .from(pins)
        .groupBy(pins.cid);
      return {
        restricted: rows.filter((r) => !r.open).map((r) => r.cid),
        public: rows.filter((r) => r.open).map((r) => r.cid),
      };
    },
  };
}

/** the guard learns a CID's records changed; tracked, so tests and shutdown can wait for it */
export function privacyChanged(svc: StorageServices, cid: string): Promise<void> {
  const privacy = svc.storage.node.privacy;
  if (!privacy) return Promise.resolve();
  const applied = privacy.changed(cid);
  // a rebuild it may have queued (a new non-public root next to public ones) is tracked too
  void svc.storage.track(applied.then(() => privacy.idle()));
  return applied;
}

/** starts the embedded node's block guard from the pin records (a no-op on Kubo) */
export function startBlockPrivacy(svc: StorageServices): Promise<void> {
  const privacy = svc.storage.node.privacy;
  if (!privacy) return Promise.resolve();
  return svc.storage.track(
    privacy.attach(
      privacySource(svc.db, (err) => svc.log.error({ err }, 'block privacy: reading the pins failed')),
    ),
  );
}
