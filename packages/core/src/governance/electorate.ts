import { type DbOrTx, daoMembers, proposalElectorate, proposals } from '@plenum/db';
import { and, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { ProposalRow } from './rows';
import type { TokenSnapshot } from './token-snapshot';

/**
 * Freezes who may vote and with which weight when voting starts: the members at that moment, weighted by
 * token balance (token-weighted DAOs; a zero balance gives no vote) or 1 each. Later members, balance
 * changes and removals never change these numbers. With the proposal's `delegation` rule on, each row
 * also keeps the member's delegate at that moment, in the same statement (a left join with
 * dao_delegations): later delegations never change the proposal (docs/governance.md, "Counting").
 */
export async function snapshotElectorate(
  tx: DbOrTx,
  p: ProposalRow,
  tokenWeighted: boolean,
  now: Date,
  /** a token DAO's weights read from the chain at the snapshot block (token-snapshot.ts) */
  chain?: TokenSnapshot & { minWeight: bigint },
): Promise<ProposalRow> {
  if (chain) {
    // the members still members now, with their weight at the block; below the minimum: no vote. A
    // holders-open DAO with delegation also freezes its holders who delegate now, members or not: any
    // holder may vote there, and its delegate carries it until it does (docs/governance.md, "Counting")
    const entries = [...chain.weights].filter(([, w]) => w >= chain.minWeight && w > 0n);
    const delegatorsToo = p.membership === 'token-holders' && p.delegation;
    await tx.execute(sql`
      insert into proposal_electorate (proposal_id, address, weight, delegate_address)
      select ${p.id}, w.address, w.weight::numeric, ${delegateOf(p)}
      from unnest(${sql.param(entries.map(([a]) => a))}::text[], ${sql.param(entries.map(([, w]) => w.toString()))}::text[])
        as w(address, weight)
      ${delegatorsToo ? sql`left` : sql``} join dao_members m on m.dao_id = ${p.daoId} and m.address = w.address
      ${delegationsOf(p, sql`w.address`)}
      ${delegatorsToo ? sql`where m.address is not null or d.delegator_address is not null` : sql``}
      on conflict do nothing`);
  } else {
    await tx.execute(sql`
      insert into proposal_electorate (proposal_id, address, weight, delegate_address)
      select ${p.id}, m.address, ${tokenWeighted ? sql`m.token_balance` : sql`1`}, ${delegateOf(p)}
      from dao_members m
      ${delegationsOf(p, sql`m.address`)}
      where m.dao_id = ${p.daoId} ${tokenWeighted ? sql`and m.token_balance > 0` : sql``}
      on conflict do nothing`);
  }
  const [agg] = await tx
    .select({
      n: sql<string>`count(*)::text`,
      w: sql<string>`coalesce(sum(${proposalElectorate.weight}), 0)::text`,
    })
    .from(proposalElectorate)
    .where(eq(proposalElectorate.proposalId, p.id));
  const [row] = await tx
    .update(proposals)
    .set({
      status: 'ACTIVE',
      snapshotAt: now,
      eligibleVoters: Number(agg!.n),
      // holders-open: the total supply at the block, so turnout and quorum mean what Governor's do
      eligibleWeight: chain?.totalSupply != null ? chain.totalSupply.toString() : agg!.w,
      ...(chain
        ? {
            snapshotBlockNumber: Number(chain.block.number),
            snapshotBlockHash: chain.block.hash,
            snapshotBlockTime: new Date(chain.block.timestamp * 1000),
            snapshotError: null,
            snapshotRetryAt: null,
          }
        : {}),
      updatedAt: now,
    })
    .where(eq(proposals.id, p.id))
    .returning();
  return row!;
}

/** the frozen delegate of an address, joined as `d` (delegationsOf), or null without the rule */
const delegateOf = (p: ProposalRow) => (p.delegation ? sql`d.delegate_address` : sql`null::text`);
const delegationsOf = (p: ProposalRow, address: SQL) =>
  p.delegation
    ? sql`left join dao_delegations d on d.dao_id = ${p.daoId} and d.delegator_address = ${address}`
    : sql``;

/** the electorate as it would be if voting started now (shown before a delayed start) */
export async function currentElectorate(db: DbOrTx, daoId: string, tokenWeighted: boolean) {
  const weight = tokenWeighted
    ? sql`coalesce(sum(${daoMembers.tokenBalance}), 0)::text`
    : sql`count(*)::text`;
  const where = tokenWeighted
    ? and(eq(daoMembers.daoId, daoId), gt(daoMembers.tokenBalance, '0'))
    : eq(daoMembers.daoId, daoId);
  const [agg] = await db
    .select({ n: sql<string>`count(*)::text`, w: sql<string>`${weight}` })
    .from(daoMembers)
    .where(where);
  return { eligibleVoters: Number(agg!.n), eligibleWeight: BigInt(agg!.w) };
}

/** the frozen electorate of a proposal: address → weight */
export async function loadElectorate(db: DbOrTx, proposalId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ address: proposalElectorate.address, weight: proposalElectorate.weight })
    .from(proposalElectorate)
    .where(eq(proposalElectorate.proposalId, proposalId));
  return new Map(rows.map((r) => [r.address, r.weight]));
}
