import { type DbOrTx, proposalElectorate, wallets } from '@plenum/db';
import { and, eq, gt } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import { authoritiesOf } from '../governance/dao-authority';
import { type DaoRow, isMember, type ProposalRow } from '../governance/rows';
import { tokenOf } from '../governance/token-snapshot';
import type { Services } from '../services';
import { forbidden } from '../shared/errors';

/**
 * Who may write in a proposal's thread (docs/discussion.md, "Who may write"): the DAO's owner and role
 * holders; its members; in a token-holders DAO also an address in the proposal's electorate or holding
 * weight at the proposal's snapshot block (at the newest block before voting starts), as votes decide it.
 */
async function mayComment(svc: Services, dao: DaoRow, p: ProposalRow, address: string, authority: boolean) {
  if (authority) return true;
  if (await isMember(svc.db, dao.id, address)) return true;
  const token = tokenOf(p);
  if (p.membership !== 'token-holders' || !token) return false;
  if (await inElectorate(svc.db, p.id, address)) return true;
  const block =
    p.snapshotBlockNumber !== null
      ? BigInt(p.snapshotBlockNumber)
      : (await svc.chain.snapshotBlock(token.chainId)).number;
  const held = (await svc.chain.weightsAt(token, [address], block)).get(address) ?? 0n;
  return held > 0n && held >= BigInt(p.minWeight ?? '1');
}

async function inElectorate(db: DbOrTx, proposalId: string, address: string) {
  const [row] = await db
    .select({ address: proposalElectorate.address })
    .from(proposalElectorate)
    .where(
      and(
        eq(proposalElectorate.proposalId, proposalId),
        eq(proposalElectorate.address, address),
        gt(proposalElectorate.weight, '0'),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * The wallet a signed-in caller writes through: `actorAddress` when given (one of theirs, 403
 * NOT_YOUR_ADDRESS), else the first of their wallets that may write. 403 NOT_ELIGIBLE when it may not.
 */
export async function commentingAddress(
  svc: Services,
  params: { userId: string; dao: DaoRow; proposal: ProposalRow; actorAddress?: string | undefined },
): Promise<string> {
  const mine = (
    await svc.db.select({ address: wallets.address }).from(wallets).where(eq(wallets.userId, params.userId))
  ).map((w) => w.address);
  let candidates = mine;
  if (params.actorAddress !== undefined) {
    const actor = canonicalAddress(params.actorAddress, 'actorAddress');
    if (!mine.includes(actor))
      throw forbidden(`${actor} is not a wallet of the signed-in user`, 'NOT_YOUR_ADDRESS');
    candidates = [actor];
  }
  if (!candidates.length)
    throw forbidden(
      'Link a wallet to your account first: the discussion is for addresses',
      'WALLET_REQUIRED',
    );
  const authorities = await authoritiesOf(svc.db, params.dao, candidates);
  for (const address of candidates) {
    if (await mayComment(svc, params.dao, params.proposal, address, authorities.get(address) != null))
      return address;
  }
  throw forbidden(
    candidates.length === 1
      ? `${candidates[0]} may not write in this DAO's discussions: members and token holders may`
      : "None of your wallets may write in this DAO's discussions: members and token holders may",
    'NOT_ELIGIBLE',
  );
}

/** A signed comment's wallet must itself be one that may write (403 NOT_ELIGIBLE otherwise). */
export async function assertMayComment(
  svc: Services,
  params: { dao: DaoRow; proposal: ProposalRow; address: string },
): Promise<void> {
  const authorities = await authoritiesOf(svc.db, params.dao, [params.address]);
  if (
    await mayComment(
      svc,
      params.dao,
      params.proposal,
      params.address,
      authorities.get(params.address) != null,
    )
  )
    return;
  throw forbidden(
    `${params.address} may not write in this DAO's discussions: members and token holders may`,
    'NOT_ELIGIBLE',
  );
}
