import type { DaoStatus } from '@plenum/db';
import { type DbOrTx, daoMembers, daoRoles, daos, proposals } from '@plenum/db';
import { and, asc, count, desc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import type { Services } from '../services';
import { offsetOf, type Page, paginationOf } from '../shared/pagination';
import { countsOf, requireDao } from './rows';
import { daoSummaryView, daoView, proposalSummaryView } from './serialize';
import { advanceDueOfDao } from './status-automation';

/**
 * GET /daos/{daoId}: the DAO (docs/governance.md, "DAOs") with every member address and the 20 newest
 * proposals.
 */
export async function getDao(svc: Services, params: { daoId: string }) {
  const { daoId } = params;
  const dao = await requireDao(svc.db, daoId);
  await advanceDueOfDao(svc, daoId);
  const [members, roles, recent, counts] = await Promise.all([
    svc.db
      .select({ address: daoMembers.address })
      .from(daoMembers)
      .where(eq(daoMembers.daoId, daoId))
      .orderBy(asc(daoMembers.addedAt), asc(daoMembers.address)),
    rolesOfDao(svc.db, daoId),
    svc.db
      .select()
      .from(proposals)
      .where(eq(proposals.daoId, daoId))
      .orderBy(desc(proposals.createdAt), desc(proposals.id))
      .limit(20),
    countsOf(svc.db, [daoId]),
  ]);
  return daoView(dao, {
    counts: counts.get(daoId)!,
    members: members.map((m) => m.address),
    roles,
    proposals: recent.map(proposalSummaryView),
  });
}

/** every role of a DAO, in the order they were granted */
export function rolesOfDao(db: DbOrTx, daoId: string) {
  return db
    .select({ address: daoRoles.address, role: daoRoles.role })
    .from(daoRoles)
    .where(eq(daoRoles.daoId, daoId))
    .orderBy(asc(daoRoles.grantedAt), asc(daoRoles.address));
}

async function pageOfDaos(svc: Services, where: SQL | undefined, page: Page) {
  const [rows, [total]] = await Promise.all([
    svc.db
      .select()
      .from(daos)
      .where(where)
      .orderBy(desc(daos.createdAt), desc(daos.id))
      .limit(page.limit)
      .offset(offsetOf(page)),
    svc.db.select({ n: count() }).from(daos).where(where),
  ]);
  const counts = await countsOf(
    svc.db,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((r) => daoSummaryView(r, counts.get(r.id)!)),
    pagination: paginationOf(page, Number(total?.n ?? 0)),
  };
}

/** `%`, `_` and `\` match themselves in a LIKE pattern */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * GET /daos: every DAO, newest first; `status` filters (the admin approval queue uses PENDING), `member`
 * keeps the DAOs that address belongs to (a member's dashboard), `q` the DAOs whose name or description
 * contains it, ignoring case (docs/governance.md, "Finding DAOs").
 */
export function listDaos(
  svc: Services,
  params: Page & { status?: DaoStatus | undefined; member?: string | undefined; q?: string | undefined },
) {
  const member = params.member ? canonicalAddress(params.member, 'member') : undefined;
  const where = and(
    // the expression of the trigram index daos_search_trgm_idx, so the search reads the index
    params.q
      ? ilike(sql`(${daos.name} || ' ' || ${daos.description})`, `%${escapeLike(params.q)}%`)
      : undefined,
    params.status ? eq(daos.status, params.status) : undefined,
    member
      ? inArray(
          daos.id,
          svc.db.select({ id: daoMembers.daoId }).from(daoMembers).where(eq(daoMembers.address, member)),
        )
      : undefined,
  );
  return pageOfDaos(svc, where, params);
}

/** GET /daos/owner/{ownerAddress} */
export function listDaosByOwner(svc: Services, params: Page & { ownerAddress: string }) {
  const owner = canonicalAddress(params.ownerAddress, 'ownerAddress');
  return pageOfDaos(svc, eq(daos.ownerAddress, owner), params);
}
