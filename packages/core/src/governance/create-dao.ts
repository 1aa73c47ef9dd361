import { daoMembers, daos, users } from '@plenum/db';
import type { CreateDaoInput } from '@plenum/validators';
import { and, eq, isNull } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import { assertOwnsAddress } from '../auth/wallets';
import type { Services } from '../services';
import { unauthorized } from '../shared/errors';
import { refuseOffChainDelegation } from './delegation';
import { appendEvents } from './event-log';
import { daoView } from './serialize';

/**
 * Creates a DAO whose first member is its owner. ACTIVE at once, or PENDING until an admin approves it
 * when DAO_APPROVAL_REQUIRED is set; `dao_created` fires either way.
 */
export async function createDao(svc: Services, params: { userId: string; input: CreateDaoInput }) {
  const { input } = params;
  const owner = canonicalAddress(input.ownerAddress, 'ownerAddress');
  const now = svc.clock.now();
  const rules = input.votingRules;
  refuseOffChainDelegation(rules);
  // a token is checked on its chain before anything is written (400 CHAIN_NOT_CONFIGURED, TOKEN_NOT_FOUND)
  const token = rules.token
    ? {
        ...rules.token,
        address: canonicalAddress(rules.token.address, 'votingRules.token.address'),
        ...(await svc.chain.describeToken(rules.token)),
      }
    : null;
  return svc.db.transaction(async (tx) => {
    // the owner's row, shared-locked: an account deletion (which takes it exclusively and then checks
    // for ACTIVE DAOs) either finishes first, and the account is gone here, or waits and sees this DAO
    const [live] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, params.userId), isNull(users.deletedAt)))
      .for('share');
    if (!live) throw unauthorized('This account has been deleted', 'NOT_SIGNED_IN');
    await assertOwnsAddress(tx, params.userId, owner);
    const [dao] = await tx
      .insert(daos)
      .values({
        name: input.name,
        description: input.description,
        ownerAddress: owner,
        status: svc.config.governance.daoApprovalRequired ? 'PENDING' : 'ACTIVE',
        threshold: String(rules.threshold),
        minVotingPeriod: String(rules.minVotingPeriod),
        tokenWeighted: rules.tokenWeighted,
        tokenChainId: token?.chainId ?? null,
        tokenAddress: token?.address ?? null,
        tokenStandard: token?.standard ?? null,
        tokenSymbol: token?.symbol ?? null,
        tokenDecimals: token?.decimals ?? null,
        membership: rules.membership,
        minWeight: rules.minWeight ?? null,
        quorum: String(rules.quorum),
        resultsVisibility: rules.resultsVisibility,
        allowVoteChange: rules.allowVoteChange,
        proposers: rules.proposers,
        proposalThreshold: rules.proposalThreshold ?? null,
        maxActiveProposalsPerAuthor: rules.maxActiveProposalsPerAuthor ?? null,
        delegation: rules.delegation,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await tx.insert(daoMembers).values({ daoId: dao!.id, address: owner, tokenBalance: '0', addedAt: now });
    const view = daoView(dao!, {
      counts: { memberCount: 1, proposalCount: 0 },
      members: [owner],
      roles: [],
      proposals: [],
    });
    await appendEvents(tx, { items: [{ type: 'dao_created', daoId: dao!.id, data: view }], at: now });
    return view;
  });
}
