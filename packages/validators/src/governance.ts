import { z } from 'zod';
import { address, isoDateTime, pageQuery } from './common';

/** Governance inputs and outputs (docs/governance.md); shared by the routers, the web forms and the tests. */

export const DAO_STATUS = z.enum(['PENDING', 'ACTIVE', 'INACTIVE']);
export const PROPOSAL_STATUS = z.enum(['PENDING', 'ACTIVE', 'PASSED', 'REJECTED']);
export const DEFAULT_VOTING_OPTIONS = ['For', 'Against', 'Abstain'];
export const MAX_PROPOSAL_DATA_BYTES = 65_536;
export const MAX_VOTING_HOURS = 8_760;
export const RESULTS_VISIBILITY = z.enum(['live', 'after-end']);
export type ResultsVisibility = z.output<typeof RESULTS_VISIBILITY>;

const id = z.uuid();

/**
 * A wrong JSON type must stay a 400: trpc-to-openapi coerces number/boolean input fields ("50" → 50,
 * "yes" → true). The repository patches that to query strings only; wrapping body numbers and booleans in
 * an identity transform keeps them exact even without the patch. The OpenAPI document shows the inner type.
 */
const exact = <T extends z.ZodType>(schema: T) => schema.transform((v) => v);
/** exact non-negative integer up to 2^256 - 1, as a decimal string */
export const uint256String = z
  .string()
  .regex(/^(0|[1-9]\d{0,77})$/, 'must be a non-negative integer as a decimal string')
  // zod runs every check even after the pattern failed: only digits reach BigInt ("1.5" would throw)
  .refine((s) => !/^\d+$/.test(s) || BigInt(s) < 2n ** 256n, 'must fit in uint256')
  .meta({ example: '1000000000000000000' });

// ---- DAOs ----

export const votingRulesInput = z.strictObject({
  threshold: exact(z.number().min(1).max(100)),
  minVotingPeriod: exact(z.number().min(0).max(MAX_VOTING_HOURS)).default(0),
  tokenWeighted: exact(z.boolean()).default(false),
  quorum: exact(z.number().min(0).max(100)).default(0),
  /** `after-end`: choices and per-option figures stay hidden until the proposal ends (docs/governance.md) */
  resultsVisibility: RESULTS_VISIBILITY.default('live'),
  /** true: a second vote by the same voter on an open proposal replaces the first (docs/governance.md) */
  allowVoteChange: exact(z.boolean()).default(false),
});

export const createDaoInput = z.strictObject({
  name: z.string().trim().min(1, 'required').max(100),
  description: z.string().max(2_000).default(''),
  ownerAddress: address,
  votingRules: votingRulesInput,
});
export type CreateDaoInput = z.output<typeof createDaoInput>;

export const votingRulesSchema = z.object({
  threshold: z.number(),
  minVotingPeriod: z.number(),
  tokenWeighted: z.boolean(),
  quorum: z.number(),
  resultsVisibility: RESULTS_VISIBILITY,
  allowVoteChange: z.boolean(),
});

const daoBase = {
  daoId: id,
  name: z.string(),
  description: z.string(),
  ownerAddress: z.string(),
  status: DAO_STATUS,
  votingRules: votingRulesSchema,
  memberCount: z.number().int(),
  proposalCount: z.number().int(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
};
export const daoSummarySchema = z.object(daoBase).meta({ id: 'DaoSummary' });

export const proposalSummarySchema = z
  .object({
    proposalId: id,
    daoId: id,
    title: z.string(),
    description: z.string(),
    creatorAddress: z.string(),
    status: PROPOSAL_STATUS,
    startTime: isoDateTime,
    endTime: isoDateTime,
    proposalData: z.record(z.string(), z.unknown()),
    votingOptions: z.array(z.string()),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'ProposalSummary' });

export const daoSchema = z
  .object({ ...daoBase, members: z.array(z.string()), proposals: z.array(proposalSummarySchema) })
  .meta({ id: 'Dao' });

export const daoIdInput = z.strictObject({ daoId: id });
export const listDaosInput = z.strictObject({
  ...pageQuery,
  status: DAO_STATUS.optional(),
  member: address.optional().meta({ description: 'only DAOs this address is a member of' }),
});
export const daosByOwnerInput = z.strictObject({ ...pageQuery, ownerAddress: address });
export const setDaoStatusInput = z.strictObject({
  daoId: id,
  status: z.enum(['ACTIVE', 'INACTIVE']),
});

// ---- members ----

export const addMemberInput = z.strictObject({ daoId: id, memberAddress: address });
export const memberPathInput = z.strictObject({ daoId: id, memberAddress: address });
export const setBalanceInput = z.strictObject({
  daoId: id,
  memberAddress: address,
  tokenBalance: uint256String,
});
export const listMembersInput = z.strictObject({ daoId: id, ...pageQuery });

export const memberSchema = z
  .object({ memberAddress: z.string(), tokenBalance: z.string(), addedAt: isoDateTime })
  .meta({ id: 'Member' });
export const membershipSchema = z
  .object({
    daoId: id,
    memberAddress: z.string(),
    tokenBalance: z.string(),
    addedAt: isoDateTime,
    memberCount: z.number().int(),
  })
  .meta({ id: 'Membership' });

// ---- proposals ----

const votingOptions = z
  .array(z.string().trim().min(1, 'must not be empty').max(100))
  .max(5, 'at most 5 options')
  .optional()
  .transform((opts, ctx) => {
    if (!opts || opts.length === 0) return [...DEFAULT_VOTING_OPTIONS];
    if (opts.length < 2) ctx.addIssue({ code: 'custom', message: 'give 2 to 5 options (or none)' });
    const seen = new Set<string>();
    opts.forEach((o, i) => {
      const key = o.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: [i], message: 'options must be distinct (ignoring case)' });
      seen.add(key);
    });
    return opts;
  });

const proposalData = z
  .record(z.string(), z.unknown())
  .default({})
  .refine(
    (d) => new TextEncoder().encode(JSON.stringify(d)).length <= MAX_PROPOSAL_DATA_BYTES,
    'must be at most 64 KiB',
  );

export const createProposalInput = z.strictObject({
  daoId: id,
  title: z.string().trim().min(1, 'required').max(200),
  description: z.string().max(20_000).default(''),
  creatorAddress: address,
  votingDurationHours: exact(
    z
      .number()
      .min(1 / 3600, 'must be at least one second')
      .max(MAX_VOTING_HOURS),
  ),
  proposalData,
  votingOptions,
  startTime: isoDateTime.optional(),
});
export type CreateProposalInput = z.output<typeof createProposalInput>;

export const proposalIdInput = z.strictObject({ proposalId: id });
export const listProposalsInput = z.strictObject({
  daoId: id,
  ...pageQuery,
  status: PROPOSAL_STATUS.optional(),
});
export const listActiveProposalsInput = z.strictObject({ daoId: id, ...pageQuery });

// ---- votes ----

export const castVoteInput = z.strictObject({
  proposalId: id,
  daoId: id,
  voterAddress: address,
  choice: z.string().min(1, 'required').max(100),
  comment: z.string().max(1_000).optional(),
  /** EIP-712 signature of the voter (votes without a session) */
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/, 'must be 0x-prefixed hex')
    .max(1_000)
    .optional(),
  /** Unix seconds, signed with the vote */
  timestamp: exact(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)).optional(),
});
export type CastVoteInput = z.output<typeof castVoteInput>;

const typedField = z.object({ name: z.string(), type: z.string() });
export const eip712DomainSchema = z.object({ name: z.string(), version: z.string() });
export const eip712VoteSchema = z
  .object({
    domain: eip712DomainSchema,
    primaryType: z.literal('Vote'),
    types: z.record(z.string(), z.array(typedField)),
  })
  .meta({ id: 'Eip712Vote' });

export const signedTypedDataSchema = eip712VoteSchema
  .extend({
    message: z.object({
      daoId: z.string(),
      proposalId: z.string(),
      choice: z.string(),
      comment: z.string(),
      timestamp: z.number().int(),
    }),
  })
  .meta({ id: 'SignedVoteTypedData' });

export const voteSchema = z
  .object({
    voteId: id,
    proposalId: id,
    daoId: id,
    voterAddress: z.string(),
    /** null while the proposal's results are hidden (resultsVisibility after-end), except to the voter */
    choice: z.string().nullable(),
    weight: z.string(),
    comment: z.string(),
    /** present when the vote was signed: verify offline with the typed data below (hidden like choice) */
    signature: z.string().nullable(),
    typedData: signedTypedDataSchema.nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    /** set when a later vote of the same voter replaced this one (votingRules.allowVoteChange): not counted */
    replacedAt: isoDateTime.nullable(),
  })
  .meta({ id: 'Vote' });

export const proposalSchema = proposalSummarySchema
  .extend({ votes: z.array(voteSchema), voteCount: z.number().int() })
  .meta({ id: 'Proposal' });

export const voteIdInput = z.strictObject({ voteId: id });
export const votesOfProposalInput = z.strictObject({ proposalId: id, ...pageQuery });
export const voterVoteInput = z.strictObject({ proposalId: id, voterAddress: address });

export const resultsSchema = z
  .object({
    proposalId: id,
    status: PROPOSAL_STATUS,
    options: z.array(
      z.object({ option: z.string(), votes: z.number().int(), weight: z.string(), percent: z.number() }),
    ),
    totalVotes: z.number().int(),
    totalWeight: z.string(),
    eligibleVoters: z.number().int(),
    eligibleWeight: z.string(),
    turnoutPercent: z.number(),
    quorumPercent: z.number(),
    quorumReached: z.boolean(),
    threshold: z.number(),
    winningOption: z.string().nullable(),
    /** null while the results are hidden */
    passing: z.boolean().nullable(),
    /** true while the proposal's results are hidden (resultsVisibility after-end): options is empty */
    hidden: z.boolean(),
    /** when hidden results become public: the proposal's end; null when they are not hidden */
    revealAt: isoDateTime.nullable(),
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Results' });
