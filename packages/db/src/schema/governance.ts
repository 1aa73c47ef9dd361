import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, parentId, tstz, uint256, updatedAt } from './columns';

export const DAO_STATUSES = ['PENDING', 'ACTIVE', 'INACTIVE'] as const;
export type DaoStatus = (typeof DAO_STATUSES)[number];
export const PROPOSAL_STATUSES = ['PENDING', 'ACTIVE', 'PASSED', 'REJECTED', 'CANCELLED'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];
export const VOTING_SYSTEM_NAMES = [
  'single-choice',
  'basic',
  'approval',
  'weighted',
  'quadratic',
  'ranked-choice',
] as const;
export type VotingSystemName = (typeof VOTING_SYSTEM_NAMES)[number];

/**
 * A DAO's voting rules, as columns. The DAO holds the current ones; every proposal holds a copy of those it
 * was created under, which its votes, results and status changes read (docs/governance.md, "Changing the
 * rules"): an edit applies to proposals created after it, never to a running vote.
 */
const votingRuleColumns = () => ({
  /** percent 1..100, fractions allowed */
  threshold: numeric('threshold', { precision: 9, scale: 6 }).notNull(),
  /** hours, fractions allowed */
  minVotingPeriod: numeric('min_voting_period', { precision: 12, scale: 6 }).notNull(),
  tokenWeighted: boolean('token_weighted').notNull(),
  /** percent 0..100 of the electorate's weight */
  quorum: numeric('quorum', { precision: 9, scale: 6 }).notNull().default('0'),
  /** 'live' or 'after-end': whether choices and per-option results show while a proposal is open */
  resultsVisibility: text('results_visibility').$type<'live' | 'after-end'>().notNull().default('live'),
  /** a voter's later vote on an open proposal replaces the earlier one */
  allowVoteChange: boolean('allow_vote_change').notNull().default(false),
  /** the governance token on a chain (docs/governance.md, "Token holdings from the chain"); null: manual */
  tokenChainId: integer('token_chain_id'),
  tokenAddress: text('token_address'),
  tokenStandard: text('token_standard').$type<'erc20' | 'erc20-votes'>(),
  tokenSymbol: text('token_symbol'),
  tokenDecimals: integer('token_decimals'),
  /** 'members' or 'token-holders' (any wallet holding minWeight at the snapshot block votes) */
  membership: text('membership').$type<'members' | 'token-holders'>().notNull().default('members'),
  /** token-holders: the least weight that votes; null: more than 0 */
  minWeight: uint256('min_weight'),
  /** who may create proposals: 'members', 'authors' (owner, admins, authors) or 'holders' (token DAOs) */
  proposers: text('proposers').$type<Proposers>().notNull().default('members'),
  /** holders: the least weight at the newest block that may propose; null: more than 0 */
  proposalThreshold: uint256('proposal_threshold'),
  /** how many PENDING or ACTIVE proposals one creator address may have at once; null: no limit */
  maxActiveProposalsPerAuthor: integer('max_active_proposals_per_author'),
  /** members delegate their vote inside the DAO (docs/governance.md, "Delegation"); never for erc20-votes */
  delegation: boolean('delegation').notNull().default(false),
});

export const PROPOSERS = ['members', 'authors', 'holders'] as const;
export type Proposers = (typeof PROPOSERS)[number];
export const DAO_ROLES = ['admin', 'moderator', 'author'] as const;
export type DaoRole = (typeof DAO_ROLES)[number];

export const daos = pgTable(
  'daos',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    ownerAddress: text('owner_address').notNull(),
    status: text('status').$type<DaoStatus>().notNull().default('ACTIVE'),
    ...votingRuleColumns(),
    /**
     * rows of dao_members, kept by triggers on dao_members (migration 0013): a DAO's member count without
     * counting a million rows (docs/architecture.md, "Lists at scale")
     */
    memberCount: integer('member_count').notNull().default(0),
    /** a two-step ownership transfer waiting for the new owner to accept (docs/governance.md, "Ownership") */
    pendingOwnerAddress: text('pending_owner_address'),
    pendingOwnerSince: tstz('pending_owner_since'),
    /** why an admin rejected the DAO while it awaited approval (status INACTIVE) */
    rejectionReason: text('rejection_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('daos_owner_idx').on(t.ownerAddress),
    index('daos_created_idx').on(t.createdAt),
    // GET /daos?q=: names and descriptions searched by substring without reading every DAO
    index('daos_search_trgm_idx').using('gin', sql`(${t.name} || ' ' || ${t.description}) gin_trgm_ops`),
  ],
);

export const daoMembers = pgTable(
  'dao_members',
  {
    daoId: parentId('dao_id', () => daos.id),
    address: text('address').notNull(),
    tokenBalance: uint256('token_balance').notNull().default('0'),
    addedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.daoId, t.address] }),
    index('dao_members_address_idx').on(t.address),
    // a DAO's members in the order its lists give them (addedAt, then address): without it every page of
    // GET /daos/{daoId}/members reads and sorts the whole membership (the scale bench)
    index('dao_members_dao_added_idx').on(t.daoId, t.addedAt, t.address),
  ],
);

export const proposals = pgTable(
  'proposals',
  {
    id: id(),
    daoId: parentId('dao_id', () => daos.id),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    creatorAddress: text('creator_address').notNull(),
    status: text('status').$type<ProposalStatus>().notNull(),
    startTime: tstz('start_time').notNull(),
    endTime: tstz('end_time').notNull(),
    proposalData: jsonb('proposal_data').$type<Record<string, unknown>>().notNull(),
    votingOptions: jsonb('voting_options').$type<string[]>().notNull(),
    /** how ballots are counted (docs/governance.md, "Voting systems") */
    votingSystem: text('voting_system').$type<VotingSystemName>().notNull().default('single-choice'),
    /** set when the electorate snapshot is taken (voting start) */
    snapshotAt: tstz('snapshot_at'),
    /** token DAOs: the chain block the electorate's weights were read at */
    snapshotBlockNumber: bigint('snapshot_block_number', { mode: 'number' }),
    snapshotBlockHash: text('snapshot_block_hash'),
    snapshotBlockTime: tstz('snapshot_block_time'),
    /** token DAOs: the last failed snapshot attempt's reason, its count, and when to try again */
    snapshotError: text('snapshot_error'),
    snapshotAttempts: integer('snapshot_attempts').notNull().default(0),
    snapshotRetryAt: tstz('snapshot_retry_at'),
    eligibleVoters: integer('eligible_voters').notNull().default(0),
    eligibleWeight: uint256('eligible_weight').notNull().default('0'),
    finalizedAt: tstz('finalized_at'),
    /** set when the voting reminder mails were enqueued (docs/governance.md, "Notifications"): claimed once */
    reminderSentAt: tstz('reminder_sent_at'),
    /** the DAO's rules when the proposal was created: its votes, results and outcome use these */
    ...votingRuleColumns(),
    /** status CANCELLED: when, by which address, and why (docs/governance.md, "Cancelling a proposal") */
    cancelledAt: tstz('cancelled_at'),
    cancelledBy: text('cancelled_by'),
    cancelReason: text('cancel_reason'),
    /**
     * the proposal's record once it is closed (docs/governance.md, "The proposal record"): its CID, fixed
     * in the closing transaction; when its blocks were stored and pinned on the IPFS node; the lease of
     * the instance storing them, failed attempts and the last failure's reason
     */
    recordCid: text('record_cid'),
    recordPublishedAt: tstz('record_published_at'),
    recordClaimedUntil: tstz('record_claimed_until'),
    recordAttempts: integer('record_attempts').notNull().default(0),
    recordError: text('record_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // closed proposals whose record is not stored yet: the publisher's pass reads only those
    index('proposals_record_due_idx')
      .on(t.recordClaimedUntil)
      .where(sql`${t.recordPublishedAt} is null and ${t.status} in ('PASSED', 'REJECTED', 'CANCELLED')`),
    // a DAO's proposals in their list's order (the id breaks ties): a page's ids, even deep, come from the
    // index alone (docs/architecture.md, "Lists at scale")
    index('proposals_dao_idx').on(t.daoId, t.createdAt, t.id),
    // GET /proposals/dao/{daoId}/active (and ?status=): the page and its count read only that status
    index('proposals_dao_status_idx').on(t.daoId, t.status, t.createdAt, t.id),
    index('proposals_status_start_idx').on(t.status, t.startTime),
    index('proposals_status_end_idx').on(t.status, t.endTime),
    // the scheduler's reminder pass: open proposals still without their reminder, by end time
    index('proposals_reminder_due_idx')
      .on(t.endTime)
      .where(sql`${t.status} = 'ACTIVE' and ${t.reminderSentAt} is null`),
  ],
);

/**
 * Roles per DAO (docs/governance.md, "Roles"): one per address. The owner holds none: it is an implicit
 * admin that only an ownership transfer changes.
 */
export const daoRoles = pgTable(
  'dao_roles',
  {
    daoId: parentId('dao_id', () => daos.id),
    address: text('address').notNull(),
    role: text('role').$type<DaoRole>().notNull(),
    /** the address that granted it; null when no address did (the old owner kept as an admin) */
    grantedBy: text('granted_by'),
    grantedAt: tstz('granted_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.daoId, t.address] })],
);

/**
 * What changed about a DAO, or about one proposal, and who changed it: GET /daos/{daoId}/history (rows
 * without a proposal) and GET /proposals/{proposalId}/history. `changes` maps a field to { from, to }.
 */
export const governanceHistory = pgTable(
  'governance_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    daoId: parentId('dao_id', () => daos.id),
    proposalId: uuid('proposal_id').references(() => proposals.id, { onDelete: 'cascade' }),
    /** the address acting; null for a platform admin, who acts as an account */
    actorAddress: text('actor_address'),
    changes: jsonb('changes').$type<Record<string, { from: unknown; to: unknown }>>().notNull(),
    changedAt: tstz('changed_at').notNull().defaultNow(),
  },
  (t) => [
    index('governance_history_dao_idx').on(t.daoId, t.id).where(sql`${t.proposalId} is null`),
    index('governance_history_proposal_idx').on(t.proposalId, t.id),
  ],
);

/**
 * Delegation inside a DAO (docs/governance.md, "Delegation"): one delegate per delegator and DAO, a new one
 * replacing the old.
 */
export const daoDelegations = pgTable(
  'dao_delegations',
  {
    daoId: parentId('dao_id', () => daos.id),
    delegatorAddress: text('delegator_address').notNull(),
    delegateAddress: text('delegate_address').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.daoId, t.delegatorAddress] }),
    index('dao_delegations_delegate_idx').on(t.daoId, t.delegateAddress),
  ],
);

/**
 * The last signed delegation change per delegator and DAO, kept after a removal too: a signed change is
 * taken only when it is newer than this (docs/governance.md, "Delegation").
 */
export const daoDelegationClocks = pgTable(
  'dao_delegation_clocks',
  {
    daoId: parentId('dao_id', () => daos.id),
    delegatorAddress: text('delegator_address').notNull(),
    signedTimestamp: bigint('signed_timestamp', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.daoId, t.delegatorAddress] })],
);

/** A delegate's statement in a DAO (markdown), written by the address's owner. */
export const daoDelegateStatements = pgTable(
  'dao_delegate_statements',
  {
    daoId: parentId('dao_id', () => daos.id),
    address: text('address').notNull(),
    statement: text('statement').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.daoId, t.address] })],
);

/** Electorate frozen when voting starts: who may vote and with which weight. */
export const proposalElectorate = pgTable(
  'proposal_electorate',
  {
    proposalId: parentId('proposal_id', () => proposals.id),
    address: text('address').notNull(),
    weight: uint256('weight').notNull(),
    /** the address's delegate when voting started, frozen with the weight (docs/governance.md, "Delegation") */
    delegateAddress: text('delegate_address'),
  },
  (t) => [
    primaryKey({ columns: [t.proposalId, t.address] }),
    // a delegate's frozen delegators, read when its vote is counted (docs/governance.md, "Counting")
    index('proposal_electorate_delegate_idx')
      .on(t.proposalId, t.delegateAddress)
      .where(sql`${t.delegateAddress} is not null`),
    // the record's electorate order, lower-case addresses in byte order whatever the collation
    // (docs/governance.md, "Publishing")
    index('proposal_electorate_record_order_idx').on(t.proposalId, sql`lower(${t.address}) collate "C"`),
  ],
);

export const votes = pgTable(
  'votes',
  {
    id: id(),
    proposalId: parentId('proposal_id', () => proposals.id),
    daoId: uuid('dao_id').notNull(),
    voterAddress: text('voter_address').notNull(),
    /** the option (single-choice, basic) or the ballot's canonical JSON text (the other systems) */
    choice: text('choice').notNull(),
    /** the ballot as a JSON array or object for the systems whose ballot is not one option; null otherwise */
    ballot: jsonb('ballot').$type<string[] | Record<string, number>>(),
    /** what the vote counts now: ownWeight + delegatedWeight (docs/governance.md, "Counting") */
    weight: uint256('weight').notNull(),
    /** the weight of the voter's frozen delegators that have no counted vote on the proposal now */
    delegatedWeight: uint256('delegated_weight').notNull().default('0'),
    /** the voter's own weight, from the frozen electorate: computed, so weight = own + delegated always */
    ownWeight: uint256('own_weight').notNull().generatedAlwaysAs(sql`weight - delegated_weight`),
    comment: text('comment').notNull().default(''),
    /** EIP-712 signature and its signed Unix-seconds timestamp, when the vote was signed */
    signature: text('signature'),
    signedTimestamp: bigint('signed_timestamp', { mode: 'number' }),
    /** the choice exactly as signed, when it differs from the option it matched (surrounding spaces) */
    signedChoice: text('signed_choice'),
    /**
     * where the vote stands among its voter's votes on the proposal, in Unix seconds: a signed vote's
     * timestamp; a session vote's second, raised to the order of the vote it replaced. A signed change is
     * taken only above it (docs/governance.md, "Changing a vote"). Null on votes from before it existed:
     * read as signed_timestamp, else created_at's second.
     */
    orderKey: bigint('order_key', { mode: 'number' }),
    /** when a later vote of the same voter replaced this one; replaced votes are kept, never counted */
    replacedAt: tstz('replaced_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // one counted vote per voter: replaced votes stay beside it (docs/governance.md, "Changing a vote")
    uniqueIndex('votes_one_per_voter').on(t.proposalId, t.voterAddress).where(sql`${t.replacedAt} is null`),
    // a proposal's votes newest or oldest first, the id breaking ties: a page, by offset or after a cursor,
    // reads only its own entries (docs/architecture.md, "Lists at scale")
    index('votes_proposal_created_idx').on(t.proposalId, t.createdAt, t.id),
  ],
);

/**
 * Running totals per option, so results never scan the votes table. Sharded counters: concurrent
 * votes update different rows of the same option instead of queueing on one row lock. `option` is an
 * option name, except (docs/governance.md, "Voting systems"): approval, weighted and quadratic add the
 * rows ' voters' (votes = ballots, weight = their weight) and ' decided' (weight = decided weight), keys no
 * option can have since options are trimmed; weighted and quadratic keep `weight` in their accumulator's
 * unit; ranked-choice keys a row by the ranking's canonical JSON text (one row per distinct ranking).
 */
export const proposalTallies = pgTable(
  'proposal_tallies',
  {
    proposalId: parentId('proposal_id', () => proposals.id),
    option: text('option').notNull(),
    shard: smallint('shard').notNull().default(0),
    votes: bigint('votes', { mode: 'number' }).notNull().default(0),
    weight: uint256('weight').notNull().default('0'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.proposalId, t.option, t.shard] })],
);

/** Every governance change, in order: the source of live events and of replay after reconnect. */
export const events = pgTable(
  'events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    daoId: uuid('dao_id').notNull(),
    proposalId: uuid('proposal_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    occurredAt: createdAt(),
  },
  (t) => [index('events_dao_idx').on(t.daoId, t.id), index('events_proposal_idx').on(t.proposalId, t.id)],
);
