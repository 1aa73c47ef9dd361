import { type DbOrTx, daoDelegationClocks, daoDelegations } from '@plenum/db';
import type { RemoveDelegationInput, SetDelegationInput } from '@plenum/validators';
import { and, eq, lt, sql } from 'drizzle-orm';
import { type Hex, recoverTypedDataAddress, zeroAddress } from 'viem';
import { canonicalAddress, sameAddress } from '../auth/address';
import type { Principal } from '../auth/sessions';
import { assertOwnsAddress } from '../auth/wallets';
import type { Services } from '../services';
import { AppError, badRequest, conflict, forbidden, unauthorized } from '../shared/errors';
import { appendEvents } from './event-log';
import { type DaoRow, isMember, requireDao } from './rows';
import { checkSignedTime } from './signed-vote';
import { tokenOf } from './token-snapshot';
import { VOTE_DOMAIN } from './vote-signer';

/**
 * Delegation inside a DAO, the write side (docs/governance.md, "Delegation"): a delegator names one
 * delegate per DAO (a new one replaces the old) or removes it, with a session owning the delegator's
 * address or an EIP-712 signature of it. Each change is one transaction that holds the (DAO, delegator)
 * pair's row locked and appends `delegation_changed` with it; signed changes keep their order through
 * `dao_delegation_clocks`.
 */

/** the EIP-712 `Delegation` message (docs/governance.md, "Delegating"); a removal signs the zero address */
export const DELEGATION_TYPES = {
  Delegation: [
    { name: 'daoId', type: 'string' },
    { name: 'delegatorAddress', type: 'address' },
    { name: 'delegateAddress', type: 'address' },
    { name: 'timestamp', type: 'uint64' },
  ],
} as const;

/** what `GET /eip712/delegation` returns: the votes' domain, EIP712Domain for raw eth_signTypedData_v4 */
export const DELEGATION_TYPED_DATA_SPEC = {
  domain: { ...VOTE_DOMAIN },
  primaryType: 'Delegation' as const,
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
    ],
    Delegation: DELEGATION_TYPES.Delegation.map((f) => ({ ...f })),
  },
};

/**
 * Off-chain delegation is refused for an erc20-votes token (409 DELEGATION_ON_CHAIN): its weights are the
 * token's own delegated votes, read at the snapshot block. Creation and every edit check the rules here.
 */
export function refuseOffChainDelegation(rules: {
  delegation: boolean;
  token?: { standard: string } | null | undefined;
}): void {
  if (rules.delegation && rules.token?.standard === 'erc20-votes')
    throw conflict(
      "This DAO's token is erc20-votes: the token's own delegation counts (its delegated votes at each proposal's snapshot block), so the DAO cannot turn on delegation of its own",
      'DELEGATION_ON_CHAIN',
    );
}

type Row = typeof daoDelegations.$inferSelect;
const delegationView = (r: Row) => ({
  daoId: r.daoId,
  delegatorAddress: r.delegatorAddress,
  delegateAddress: r.delegateAddress,
  createdAt: r.createdAt.toISOString(),
});

interface Signed {
  signature: string;
  timestamp: number;
}

/** who authorizes the change: the signature (401 when bad) or the session (401, 403); null when a session */
async function authorize(
  svc: Services,
  params: {
    principal: Principal | null;
    daoId: string;
    delegator: string;
    delegate: string;
    signature?: string | undefined;
    timestamp?: number | undefined;
  },
): Promise<Signed | null> {
  if (params.signature !== undefined) {
    if (params.timestamp === undefined)
      throw badRequest(
        'A signed change needs its timestamp',
        [{ path: 'timestamp', message: 'required with signature' }],
        'VALIDATION_FAILED',
      );
    checkSignedTime(params.timestamp, svc.clock.now(), svc.config.governance.signatureMaxAheadS);
    let signer: string;
    try {
      signer = await recoverTypedDataAddress({
        domain: VOTE_DOMAIN,
        types: DELEGATION_TYPES,
        primaryType: 'Delegation',
        message: {
          daoId: params.daoId,
          delegatorAddress: params.delegator as Hex,
          delegateAddress: params.delegate as Hex,
          timestamp: BigInt(params.timestamp),
        },
        signature: params.signature as Hex,
      });
    } catch {
      throw unauthorized('The signature is malformed', 'INVALID_SIGNATURE');
    }
    if (!sameAddress(signer, params.delegator))
      throw unauthorized('The signature was not made by delegatorAddress', 'INVALID_SIGNATURE');
    return { signature: params.signature, timestamp: params.timestamp };
  }
  if (params.timestamp !== undefined)
    throw badRequest(
      'timestamp is only sent with a signature',
      [{ path: 'timestamp', message: 'only with signature' }],
      'VALIDATION_FAILED',
    );
  const principal = params.principal;
  if (!principal)
    throw unauthorized("Sign in, or sign the change with the delegator's wallet (EIP-712)", 'NOT_SIGNED_IN');
  if (svc.config.emailVerificationRequired && principal.status !== 'active')
    throw forbidden('Verify your email address first', 'EMAIL_NOT_VERIFIED');
  await assertOwnsAddress(svc.db, principal.userId, params.delegator);
  return null;
}

/**
 * A signed change is taken only when it is newer than the delegator's last signed change in this DAO:
 * the clock moves to its timestamp, in the caller's transaction, and its row stays locked to the end of
 * it (a refused change rolls the move back). 409 STALE_SIGNATURE otherwise: a signature sent again, or
 * an older one, cannot undo a newer change.
 */
async function advanceClock(tx: DbOrTx, daoId: string, delegator: string, timestamp: number) {
  const moved = await tx
    .insert(daoDelegationClocks)
    .values({ daoId, delegatorAddress: delegator, signedTimestamp: timestamp })
    .onConflictDoUpdate({
      target: [daoDelegationClocks.daoId, daoDelegationClocks.delegatorAddress],
      set: { signedTimestamp: timestamp },
      // the row is locked whether or not it is updated (INSERT … ON CONFLICT DO UPDATE … WHERE)
      setWhere: lt(daoDelegationClocks.signedTimestamp, timestamp),
    })
    .returning({ t: daoDelegationClocks.signedTimestamp });
  if (!moved.length)
    throw conflict(
      "This signed change is not newer than the delegator's last signed change in this DAO",
      'STALE_SIGNATURE',
    );
}

/**
 * A session change moves the clock too, to its second (never back): a signature made before it, sent after
 * it, is then stale and cannot undo it, as for votes (docs/governance.md, "Delegating").
 */
async function sessionClock(tx: DbOrTx, daoId: string, delegator: string, now: Date) {
  const second = Math.floor(now.getTime() / 1000);
  await tx
    .insert(daoDelegationClocks)
    .values({ daoId, delegatorAddress: delegator, signedTimestamp: second })
    .onConflictDoUpdate({
      target: [daoDelegationClocks.daoId, daoDelegationClocks.delegatorAddress],
      set: {
        signedTimestamp: sql`greatest(${daoDelegationClocks.signedTimestamp}, excluded.signed_timestamp)`,
      },
    });
}

const pair = (daoId: string, delegator: string) =>
  and(eq(daoDelegations.daoId, daoId), eq(daoDelegations.delegatorAddress, delegator));

/**
 * The pair's delegation row, locked to the end of the transaction: the one this call inserts (`created`,
 * nobody else sees it before the commit; a concurrent insert of the pair waits for it), or the one
 * stored, read FOR UPDATE (its newest version). A row deleted between the two steps by a concurrent
 * removal: the insert is tried again.
 */
async function lockedPair(
  tx: DbOrTx,
  fresh: Row,
): Promise<{ created: true; row: Row } | { created: false; row: Row }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [inserted] = await tx.insert(daoDelegations).values(fresh).onConflictDoNothing().returning();
    if (inserted) return { created: true, row: inserted };
    const [held] = await tx
      .select()
      .from(daoDelegations)
      .where(pair(fresh.daoId, fresh.delegatorAddress))
      .for('update');
    if (held) return { created: false, row: held };
  }
  throw conflict('The delegation is changing: send the change again');
}

/**
 * Who may delegate in a DAO: a member (a member row); in a holders-open DAO (membership token-holders)
 * any address holding more than 0 at the newest block, read over RPC before any transaction (as the
 * proposers-holders rule reads it: dao-permissions.ts).
 */
async function mayDelegate(svc: Services, dao: DaoRow, address: string): Promise<boolean> {
  const token = tokenOf(dao);
  if (dao.membership === 'token-holders' && token) {
    const block = await svc.chain.snapshotBlock(token.chainId);
    return ((await svc.chain.weightsAt(token, [address], block.number)).get(address) ?? 0n) > 0n;
  }
  return isMember(svc.db, dao.id, address);
}

/**
 * PUT /daos/{daoId}/delegation → 200 with the delegation. Checks in order: the addresses (400, a
 * delegator delegating to itself 400 SELF_DELEGATION), the signature or the session (401, 403
 * NOT_YOUR_ADDRESS), the DAO (404; delegation off 409 DELEGATION_DISABLED; not ACTIVE 409
 * DAO_NOT_ACTIVE), the delegator's eligibility (403 NOT_A_MEMBER), then, in the transaction, the order
 * of signed changes (409 STALE_SIGNATURE). The same delegate again writes nothing and fires nothing.
 */
export async function setDelegation(
  svc: Services,
  params: { principal: Principal | null; input: SetDelegationInput },
) {
  const { input } = params;
  const delegator = canonicalAddress(input.delegatorAddress, 'delegatorAddress');
  const delegate = canonicalAddress(input.delegateAddress, 'delegateAddress');
  if (delegate === zeroAddress)
    throw badRequest(
      'The zero address is no delegate: remove the delegation instead',
      [{ path: 'delegateAddress', message: 'must not be the zero address' }],
      'VALIDATION_FAILED',
    );
  if (sameAddress(delegator, delegate))
    throw badRequest(
      'A delegator cannot delegate to itself: remove the delegation to vote with your own weight',
      [{ path: 'delegateAddress', message: 'must differ from delegatorAddress' }],
      'SELF_DELEGATION',
    );
  const signed = await authorize(svc, { ...params, ...input, delegator, delegate });
  const dao = await requireDao(svc.db, input.daoId);
  if (!dao.delegation)
    throw conflict(
      dao.tokenStandard === 'erc20-votes'
        ? "This DAO's token delegates on the chain: delegate there, its delegation counts"
        : 'This DAO has no delegation (votingRules.delegation is off)',
      'DELEGATION_DISABLED',
    );
  if (dao.status !== 'ACTIVE')
    throw conflict(`The DAO is ${dao.status}: it takes no new delegations`, 'DAO_NOT_ACTIVE');
  if (!(await mayDelegate(svc, dao, delegator)))
    throw forbidden(
      dao.membership === 'token-holders'
        ? `${delegator} holds none of this DAO's token at the newest block`
        : `${delegator} is not a member of this DAO`,
      'NOT_A_MEMBER',
    );

  const row = await svc.db.transaction(async (tx) => {
    const now = svc.clock.now();
    if (signed) await advanceClock(tx, dao.id, delegator, signed.timestamp);
    else await sessionClock(tx, dao.id, delegator, now);
    const fresh: Row = {
      daoId: dao.id,
      delegatorAddress: delegator,
      delegateAddress: delegate,
      createdAt: now,
    };
    const held = await lockedPair(tx, fresh);
    let from: string | null = null;
    let row: Row | undefined = held.row;
    if (!held.created) {
      if (held.row.delegateAddress === delegate) return held.row;
      from = held.row.delegateAddress;
      [row] = await tx
        .update(daoDelegations)
        .set({ delegateAddress: delegate, createdAt: now })
        .where(pair(dao.id, delegator))
        .returning();
    }
    await appendEvents(tx, {
      items: [changed(dao.id, delegator, from, delegate)],
      at: now,
    });
    return row!;
  });
  return delegationView(row);
}

/**
 * DELETE /daos/{daoId}/delegation/{address} → 204, with a session or a signature of the same
 * `Delegation` type naming the zero address as delegate. 404 NO_DELEGATION when there is none. Taken in a
 * DAO of any status and with delegation off (a delegation made before stays removable).
 */
export async function removeDelegation(
  svc: Services,
  params: { principal: Principal | null; input: RemoveDelegationInput },
): Promise<void> {
  const { input } = params;
  const delegator = canonicalAddress(input.address, 'address');
  const signed = await authorize(svc, { ...params, ...input, delegator, delegate: zeroAddress });
  const dao = await requireDao(svc.db, input.daoId);
  await svc.db.transaction(async (tx) => {
    if (signed) await advanceClock(tx, dao.id, delegator, signed.timestamp);
    else await sessionClock(tx, dao.id, delegator, svc.clock.now());
    // the newest version of the row, locked by the delete (a concurrent change commits first or waits)
    const [removed] = await tx
      .delete(daoDelegations)
      .where(pair(dao.id, delegator))
      .returning({ delegate: daoDelegations.delegateAddress });
    if (!removed)
      throw new AppError('NOT_FOUND', `${delegator} has no delegate in this DAO`, {
        reason: 'NO_DELEGATION',
      });
    await appendEvents(tx, {
      items: [changed(dao.id, delegator, removed.delegate, null)],
      at: svc.clock.now(),
    });
  });
}

/** the `delegation_changed` event (docs/events.md) */
function changed(daoId: string, delegator: string, from: string | null, to: string | null) {
  return {
    type: 'delegation_changed' as const,
    daoId,
    data: { daoId, delegatorAddress: delegator, from, to },
  };
}
