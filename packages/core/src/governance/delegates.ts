import { type DbOrTx, daoDelegateStatements, daoDelegations, daoMembers, daos } from '@plenum/db';
import { type AnyColumn, and, count, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { canonicalAddress } from '../auth/address';
import { assertOwnsAddress } from '../auth/wallets';
import type { Services } from '../services';
import { AppError, badRequest, conflict, notFound } from '../shared/errors';
import { offsetOf, type Page, paginationOf } from '../shared/pagination';
import { rowsOf } from '../shared/prepared';
import { type DaoRow, requireDao } from './rows';
import { tokenOf } from './token-snapshot';

/**
 * The read side of delegation in a DAO and the delegates' statements (docs/governance.md, "Reading
 * delegations", "Delegate statements"). Reads show the delegations as they stand now, whatever the DAO's
 * `delegation` rule: weights are the members' current balances (token-weighted DAOs) or 1 per member
 * (equal DAOs); a delegator or delegate who is not a member weighs 0.
 */

/** an address from a path, canonical; a wrong checksum is a 400 VALIDATION_FAILED like any bad field */
function pathAddress(input: string, field = 'address'): string {
  try {
    return canonicalAddress(input, field);
  } catch (err) {
    if (err instanceof AppError && err.code === 'BAD_REQUEST')
      throw badRequest(err.message, err.issues, 'VALIDATION_FAILED');
    throw err;
  }
}

/**
 * The weight one dao_members row (alias `m`, null columns when the address is no member) gives: its
 * balance in a token-weighted DAO, else 1; 0 for no member.
 */
const memberWeight = (dao: DaoRow, m: string): SQL =>
  dao.tokenWeighted
    ? sql.raw(`coalesce(${m}.token_balance, 0)`)
    : sql.raw(`(case when ${m}.address is null then 0 else 1 end)::numeric(78, 0)`);

/** addresses ascending as hex numbers, the same on every collation (EIP-55 mixes letter cases) */
const addressOrder = (column: SQL | AnyColumn) => sql`lower(${column}) collate "C"`;

interface DelegateRow {
  address: string;
  delegator_count: number | string;
  delegated_weight: string;
  own_weight: string;
  statement: string | null;
  proposals_voted: number | string;
  started: number | string;
  total: number | string;
}

/**
 * GET /daos/{daoId}/delegates: every address that is someone's delegate in the DAO or has a statement
 * there, by delegated weight (descending), then address. ONE statement: the DAO's delegations (through
 * dao_delegations_delegate_idx) are grouped by delegate, each delegator's weight joined from its member row
 * (by primary key, or one hash join with the DAO's members; the plan is in the docs); the groups are sorted
 * by their sums and cut to the page (a top-N sort), and only the page's rows
 * then read their own weight, statement and votes (each vote looked up by votes_one_per_voter for each
 * started proposal of the DAO). `total` is counted over the same groups by a window function.
 */
export async function listDelegates(svc: Services, params: Page & { daoId: string }) {
  const dao = await requireDao(svc.db, params.daoId);
  const daoId = dao.id;
  const result = await svc.db.execute(sql`
    with grouped as (
      select d.delegate_address as address, count(*) as delegator_count,
        coalesce(sum(${memberWeight(dao, 'm')}), 0) as delegated_weight
      from dao_delegations d
      left join dao_members m on m.dao_id = d.dao_id and m.address = d.delegator_address
      where d.dao_id = ${daoId}::uuid
      group by d.delegate_address
    ), listed as (
      select address, delegator_count, delegated_weight from grouped
      union all
      select s.address, 0, 0 from dao_delegate_statements s
      where s.dao_id = ${daoId}::uuid and not exists (
        select 1 from dao_delegations d where d.dao_id = s.dao_id and d.delegate_address = s.address)
    ), page as (
      select address, delegator_count, delegated_weight, count(*) over () as total
      from listed
      order by delegated_weight desc, ${addressOrder(sql.raw('address'))}
      limit ${params.limit} offset ${offsetOf(params)}
    ), started as (
      select p.id from proposals p
      where p.dao_id = ${daoId}::uuid and p.snapshot_at is not null and p.status <> 'CANCELLED'
    )
    select pg.address, pg.delegator_count::int as delegator_count,
      pg.delegated_weight::text as delegated_weight, pg.total::int as total,
      ${memberWeight(dao, 'own')}::text as own_weight, st.statement,
      (select count(*)::int from started sp
        join votes v on v.proposal_id = sp.id and v.voter_address = pg.address and v.replaced_at is null
      ) as proposals_voted,
      (select count(*)::int from started) as started
    from page pg
    left join dao_members own on own.dao_id = ${daoId}::uuid and own.address = pg.address
    left join dao_delegate_statements st on st.dao_id = ${daoId}::uuid and st.address = pg.address
    order by pg.delegated_weight desc, ${addressOrder(sql.raw('pg.address'))}`);
  const rows = rowsOf<DelegateRow>(result);
  // a page past the end has no row to carry the window's count: count the listed addresses alone
  const total = rows.length ? Number(rows[0]!.total) : await countDelegates(svc.db, daoId);
  return {
    items: rows.map((r) => {
      const voted = Number(r.proposals_voted);
      const started = Number(r.started);
      return {
        address: r.address,
        delegatorCount: Number(r.delegator_count),
        delegatedWeight: r.delegated_weight,
        ownWeight: r.own_weight,
        statement: r.statement,
        proposalsVoted: voted,
        participationRate: started ? voted / started : null,
      };
    }),
    pagination: paginationOf(params, total),
  };
}

async function countDelegates(db: DbOrTx, daoId: string): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as n from (
      select delegate_address from dao_delegations where dao_id = ${daoId}::uuid
      union
      select address from dao_delegate_statements where dao_id = ${daoId}::uuid
    ) a`);
  return Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
}

/**
 * GET /daos/{daoId}/delegation/{address}: whom the address delegates to, and who delegates to it (paged,
 * in address order, each with the weight it gives now); for an erc20-votes token DAO also the token's own
 * delegate of the address, read from the chain at the newest block.
 */
export async function delegationOf(svc: Services, params: Page & { daoId: string; address: string }) {
  const address = pathAddress(params.address);
  const dao = await requireDao(svc.db, params.daoId);
  const m = alias(daoMembers, 'm');
  const toDelegate = and(eq(daoDelegations.daoId, dao.id), eq(daoDelegations.delegateAddress, address));
  const token = tokenOf(dao);
  const [own, delegators, counted, chainDelegate] = await Promise.all([
    svc.db
      .select({ delegateAddress: daoDelegations.delegateAddress, createdAt: daoDelegations.createdAt })
      .from(daoDelegations)
      .where(and(eq(daoDelegations.daoId, dao.id), eq(daoDelegations.delegatorAddress, address)))
      .limit(1),
    svc.db
      .select({
        delegatorAddress: daoDelegations.delegatorAddress,
        weight: sql<string>`(${memberWeight(dao, 'm')})::text`,
        createdAt: daoDelegations.createdAt,
      })
      .from(daoDelegations)
      .leftJoin(m, and(eq(m.daoId, daoDelegations.daoId), eq(m.address, daoDelegations.delegatorAddress)))
      .where(toDelegate)
      .orderBy(addressOrder(daoDelegations.delegatorAddress))
      .limit(params.limit)
      .offset(offsetOf(params)),
    svc.db.select({ n: count() }).from(daoDelegations).where(toDelegate),
    // an erc20-votes DAO's delegation is the token's own (docs/governance.md, "Turning delegation on")
    token?.standard === 'erc20-votes' ? svc.chain.delegateOf(token, address) : null,
  ]);
  const mine = own[0];
  return {
    chainDelegate,
    delegate: mine
      ? { delegateAddress: mine.delegateAddress, createdAt: mine.createdAt.toISOString() }
      : null,
    delegators: {
      items: delegators.map((d) => ({
        delegatorAddress: d.delegatorAddress,
        weight: String(d.weight),
        createdAt: d.createdAt.toISOString(),
      })),
      total: Number(counted[0]?.n ?? 0),
    },
  };
}

/**
 * PUT /daos/{daoId}/delegates/{address}/statement: the address's owner (a signed-in user holding that
 * wallet) writes its statement in an ACTIVE DAO; any address may, member or not. The text is kept as
 * sent (markdown, trimmed); an empty one deletes it and answers 200 with statement "". One upsert: of
 * concurrent writes the last one stays, whole.
 */
export async function setDelegateStatement(
  svc: Services,
  params: { userId: string; daoId: string; address: string; statement: string },
) {
  const address = pathAddress(params.address);
  await requireDao(svc.db, params.daoId);
  await assertOwnsAddress(svc.db, params.userId, address);
  const now = svc.clock.now();
  return svc.db.transaction(async (tx) => {
    // KEY SHARE: the DAO cannot be deleted under the write (a foreign-key failure), nothing else waits
    const [dao] = await tx
      .select({ id: daos.id, status: daos.status })
      .from(daos)
      .where(eq(daos.id, params.daoId))
      .for('key share');
    if (!dao) throw notFound('DAO not found');
    if (dao.status !== 'ACTIVE')
      throw conflict(`The DAO is ${dao.status}: it takes no new statements`, 'DAO_NOT_ACTIVE');
    const key = and(eq(daoDelegateStatements.daoId, dao.id), eq(daoDelegateStatements.address, address));
    if (params.statement === '') {
      await tx.delete(daoDelegateStatements).where(key);
      return { daoId: dao.id, address, statement: '', updatedAt: now.toISOString() };
    }
    const [row] = await tx
      .insert(daoDelegateStatements)
      .values({ daoId: dao.id, address, statement: params.statement, updatedAt: now })
      .onConflictDoUpdate({
        target: [daoDelegateStatements.daoId, daoDelegateStatements.address],
        set: { statement: params.statement, updatedAt: now },
      })
      .returning();
    return {
      daoId: row!.daoId,
      address: row!.address,
      statement: row!.statement,
      updatedAt: row!.updatedAt.toISOString(),
    };
  });
}
