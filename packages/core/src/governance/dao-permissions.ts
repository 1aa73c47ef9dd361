import type { DbOrTx } from '@plenum/db';
import { canonicalAddress } from '../auth/address';
import type { Services } from '../services';
import { AppError, conflict, forbidden } from '../shared/errors';
import { authorityOf, can } from './dao-authority';
import { type DaoRow, isMember, requireDao } from './rows';
import { tokenOf } from './token-snapshot';

/**
 * Who may propose in a DAO (docs/governance.md, "Who may propose"): one decision, used by POST /proposals
 * and by the permissions read, so the two never disagree.
 */
export type ProposeRefusal = 'NOT_A_MEMBER' | 'NOT_AN_AUTHOR' | 'BELOW_PROPOSAL_THRESHOLD' | 'DAO_NOT_ACTIVE';

type ProposerRules = Pick<
  DaoRow,
  | 'id'
  | 'ownerAddress'
  | 'status'
  | 'proposers'
  | 'proposalThreshold'
  | 'tokenChainId'
  | 'tokenAddress'
  | 'tokenStandard'
>;

/**
 * proposers holders: the address's weight at the newest block (the snapshot block a proposal starting now
 * would take), read over RPC; null for the other rules. Called before any transaction: no lock waits on
 * the chain.
 */
export async function proposerWeight(
  svc: Pick<Services, 'chain'>,
  dao: ProposerRules,
  address: string,
): Promise<bigint | null> {
  const token = tokenOf(dao);
  if (dao.proposers !== 'holders' || !token) return null;
  const block = await svc.chain.snapshotBlock(token.chainId);
  return (await svc.chain.weightsAt(token, [address], block.number)).get(address) ?? 0n;
}

/** null when `address` may propose in `dao` now; `weight` from proposerWeight (holders DAOs) */
export async function proposeRefusal(
  db: DbOrTx,
  dao: ProposerRules,
  address: string,
  weight: bigint | null,
): Promise<ProposeRefusal | null> {
  if (dao.proposers === 'authors') {
    // the owner, admins and authors; membership is not needed
    if (!can(await authorityOf(db, dao, address), 'author')) return 'NOT_AN_AUTHOR';
  } else if (dao.proposers === 'holders') {
    if ((weight ?? 0n) < BigInt(dao.proposalThreshold ?? '1')) return 'BELOW_PROPOSAL_THRESHOLD';
  } else if (!(await isMember(db, dao.id, address))) return 'NOT_A_MEMBER';
  if (dao.status !== 'ACTIVE') return 'DAO_NOT_ACTIVE';
  return null;
}

/** the error of a refusal (docs/api.md, "Errors"): the rule's name in `detail` under NOT_ALLOWED_TO_PROPOSE */
export function proposeRefusalError(refusal: ProposeRefusal, address: string, dao: ProposerRules): AppError {
  switch (refusal) {
    case 'NOT_A_MEMBER':
      return forbidden(`${address} is not a member of this DAO`, 'NOT_A_MEMBER');
    case 'NOT_AN_AUTHOR':
      return new AppError('FORBIDDEN', "Only this DAO's owner, admins and authors may propose", {
        reason: 'NOT_ALLOWED_TO_PROPOSE',
        detail: 'NOT_AN_AUTHOR',
      });
    case 'BELOW_PROPOSAL_THRESHOLD':
      return new AppError(
        'FORBIDDEN',
        `${address} holds less than this DAO's proposal threshold (${dao.proposalThreshold ?? '1'})`,
        { reason: 'NOT_ALLOWED_TO_PROPOSE', detail: 'BELOW_PROPOSAL_THRESHOLD' },
      );
    case 'DAO_NOT_ACTIVE':
      return conflict(`The DAO is ${dao.status}: it takes no new proposals`, 'DAO_NOT_ACTIVE');
  }
}

/**
 * GET /daos/{daoId}/permissions/{address} (docs/governance.md, "What an address may do"): its role and
 * powers, so the web app shows only the buttons that work. Public, like the roles themselves.
 */
export async function getDaoPermissions(svc: Services, params: { daoId: string; address: string }) {
  const address = canonicalAddress(params.address, 'address');
  const dao = await requireDao(svc.db, params.daoId);
  const [authority, member, weight] = await Promise.all([
    authorityOf(svc.db, dao, address),
    isMember(svc.db, dao.id, address),
    proposerWeight(svc, dao, address),
  ]);
  const refusal = await proposeRefusal(svc.db, dao, address, weight);
  return {
    daoId: dao.id,
    address,
    role: authority,
    member,
    editSettings: can(authority, 'settings'),
    manageMembers: can(authority, 'members'),
    manageRoles: can(authority, 'roles'),
    transferOwnership: can(authority, 'transfer'),
    cancelAnyProposal: can(authority, 'cancel'),
    propose: refusal === null,
    proposeRefusal: refusal,
  };
}
