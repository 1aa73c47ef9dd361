import { z } from 'zod';
import { address, afterQuery, isoDateTime, pageQuery } from './common';
import { coded, refined } from './issue-codes';
import { FOR_AGAINST_ABSTAIN, VOTING_SYSTEM_NAMES, VOTING_SYSTEM_TRAITS } from './voting-systems';

/** Governance inputs and outputs (docs/governance.md); shared by the routers, the web forms and the tests. */

export const DAO_STATUS = z.enum(['PENDING', 'ACTIVE', 'INACTIVE']);
export const PROPOSAL_STATUS = z.enum(['PENDING', 'ACTIVE', 'PASSED', 'REJECTED', 'CANCELLED']);
export const DEFAULT_VOTING_OPTIONS = [...FOR_AGAINST_ABSTAIN];
export const MAX_PROPOSAL_DATA_BYTES = 65_536;
export const MAX_VOTING_HOURS = 8_760;
export const RESULTS_VISIBILITY = z.enum(['live', 'after-end']);
export type ResultsVisibility = z.output<typeof RESULTS_VISIBILITY>;
/** how a proposal counts its ballots (docs/governance.md, "Voting systems") */
export const VOTING_SYSTEM = z.enum(VOTING_SYSTEM_NAMES).meta({ id: 'VotingSystem' });

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
  .regex(
    /^(0|[1-9]\d{0,77})$/,
    coded('invalid_decimal', 'must be a non-negative integer as a decimal string'),
  )
  // zod runs every check even after the pattern failed: only digits reach BigInt ("1.5" would throw)
  .refine(
    (s) => !/^\d+$/.test(s) || BigInt(s) < 2n ** 256n,
    refined('uint256_overflow', 'must fit in uint256'),
  )
  .meta({ example: '1000000000000000000' });

// ---- DAOs ----

export const TOKEN_STANDARD = z.enum(['erc20', 'erc20-votes']).meta({
  description:
    'erc20: weight = balanceOf at the snapshot block; erc20-votes: weight = delegated votes (getPastVotes) at the snapshot block',
});
export const DAO_MEMBERSHIP = z.enum(['members', 'token-holders']);

/** the governance token a DAO's weights are read from (docs/governance.md, "Token holdings from the chain") */
export const tokenInput = z.strictObject({
  chainId: exact(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)),
  address,
  standard: TOKEN_STANDARD,
});

/** who may create a DAO's proposals (docs/governance.md, "Who may propose") */
export const PROPOSERS = z.enum(['members', 'authors', 'holders']).meta({
  description:
    'members (default): any member; authors: the owner, admins and authors; holders (token DAOs): any address whose weight at the newest block is at least proposalThreshold',
});
export type Proposers = z.output<typeof PROPOSERS>;
/** a role in one DAO (docs/governance.md, "Roles"); the owner is an implicit admin */
export const DAO_ROLE = z.enum(['admin', 'moderator', 'author']).meta({ id: 'DaoRole' });
export type DaoRole = z.output<typeof DAO_ROLE>;

/** the fields of votingRules as a DAO's creation takes them, before their checks against each other */
const votingRulesFields = {
  threshold: exact(z.number().min(1).max(100)),
  minVotingPeriod: exact(z.number().min(0).max(MAX_VOTING_HOURS)).default(0),
  /** default: true with a token, else false */
  tokenWeighted: exact(z.boolean()).optional(),
  /** weights from the chain at each proposal's snapshot block instead of balances set by the owner */
  token: tokenInput.optional(),
  /** members (default): the member list votes; token-holders: any wallet holding minWeight at the block */
  membership: DAO_MEMBERSHIP.default('members'),
  /** token-holders: the least weight that may vote, in base units (default: more than 0) */
  minWeight: uint256String.optional(),
  quorum: exact(z.number().min(0).max(100)).default(0),
  /** `after-end`: choices and per-option figures stay hidden until the proposal ends (docs/governance.md) */
  resultsVisibility: RESULTS_VISIBILITY.default('live'),
  /** true: a second vote by the same voter on an open proposal replaces the first (docs/governance.md) */
  allowVoteChange: exact(z.boolean()).default(false),
  /** who may create proposals (default members) */
  proposers: PROPOSERS.default('members'),
  /** proposers holders: the least weight at the newest block that may propose, in base units (default: more than 0) */
  proposalThreshold: uint256String.optional(),
  /** how many PENDING or ACTIVE proposals one creator address may have at once (default: no limit) */
  maxActiveProposalsPerAuthor: exact(z.number().int().min(1).max(1_000)).optional(),
  /** members delegate their vote inside the DAO (docs/governance.md, "Delegation"); never with erc20-votes */
  delegation: exact(z.boolean()).default(false),
};

type RawRules = {
  token?: unknown;
  tokenWeighted?: boolean | undefined;
  membership: string;
  minWeight?: string | undefined;
  proposers: string;
  proposalThreshold?: string | undefined;
};
function checkRules(r: RawRules, ctx: z.RefinementCtx) {
  if (r.token && r.tokenWeighted === false)
    ctx.addIssue({
      code: 'custom',
      params: { code: 'token_weighted' },
      path: ['tokenWeighted'],
      message: 'a DAO with a token is token-weighted',
    });
  if (r.membership === 'token-holders' && !r.token)
    ctx.addIssue({
      code: 'custom',
      params: { code: 'holders_need_token' },
      path: ['membership'],
      message: 'token-holders needs a token',
    });
  if (r.minWeight !== undefined && r.membership !== 'token-holders')
    ctx.addIssue({
      code: 'custom',
      params: { code: 'only_with_holders' },
      path: ['minWeight'],
      message: 'only with membership token-holders',
    });
  if (r.proposers === 'holders' && !r.token)
    ctx.addIssue({
      code: 'custom',
      params: { code: 'holders_need_token' },
      path: ['proposers'],
      message: 'proposers holders needs a token',
    });
  if (r.proposalThreshold !== undefined && r.proposers !== 'holders')
    ctx.addIssue({
      code: 'custom',
      params: { code: 'only_with_holders' },
      path: ['proposalThreshold'],
      message: 'only with proposers holders',
    });
}

export const votingRulesInput = z
  .strictObject(votingRulesFields)
  .superRefine(checkRules)
  .transform((r) => ({ ...r, tokenWeighted: r.tokenWeighted ?? r.token !== undefined }));
export type VotingRulesInput = z.input<typeof votingRulesInput>;

/**
 * PATCH /daos/{daoId}'s votingRules: any subset of the fields. The core lays it over the DAO's current rules
 * and checks the whole as at creation (votingRulesInput); null clears an optional rule (no token, no
 * minimum, no limit).
 */
export const votingRulesPatch = z
  .strictObject({
    threshold: votingRulesFields.threshold.optional(),
    minVotingPeriod: exact(z.number().min(0).max(MAX_VOTING_HOURS)).optional(),
    tokenWeighted: exact(z.boolean()).optional(),
    token: tokenInput.nullable().optional(),
    membership: DAO_MEMBERSHIP.optional(),
    minWeight: uint256String.nullable().optional(),
    quorum: exact(z.number().min(0).max(100)).optional(),
    resultsVisibility: RESULTS_VISIBILITY.optional(),
    allowVoteChange: exact(z.boolean()).optional(),
    proposers: PROPOSERS.optional(),
    proposalThreshold: uint256String.nullable().optional(),
    maxActiveProposalsPerAuthor: exact(z.number().int().min(1).max(1_000)).nullable().optional(),
    delegation: exact(z.boolean()).optional(),
  })
  .meta({ id: 'VotingRulesPatch' });

/** who acts, when the caller holds several wallets: one of them (403 NOT_YOUR_ADDRESS otherwise) */
const actorAddress = address.optional().meta({
  description:
    "the caller's wallet to act through; default: the caller's wallet with the strongest role in this DAO",
});

export const createDaoInput = z.strictObject({
  name: z.string().trim().min(1, 'required').max(100),
  description: z.string().max(2_000).default(''),
  ownerAddress: address,
  votingRules: votingRulesInput,
});
export type CreateDaoInput = z.output<typeof createDaoInput>;

export const votingRulesSchema = z
  .object({
    threshold: z.number(),
    minVotingPeriod: z.number(),
    tokenWeighted: z.boolean(),
    /** null: balances set by the owner (or equal weights) */
    token: z
      .object({
        chainId: z.number().int(),
        address: z.string(),
        standard: TOKEN_STANDARD,
        symbol: z.string(),
        decimals: z.number().int(),
      })
      .nullable(),
    membership: DAO_MEMBERSHIP,
    /** token-holders: the least weight that may vote; null: more than 0 */
    minWeight: z.string().nullable(),
    quorum: z.number(),
    resultsVisibility: RESULTS_VISIBILITY,
    allowVoteChange: z.boolean(),
    proposers: PROPOSERS,
    /** proposers holders: the least weight that may propose; null: more than 0 */
    proposalThreshold: z.string().nullable(),
    /** null: no limit */
    maxActiveProposalsPerAuthor: z.number().int().nullable(),
    /** members may delegate their vote inside the DAO (docs/governance.md, "Delegation") */
    delegation: z.boolean(),
  })
  .meta({ id: 'VotingRules' });

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

/** the chain block a token DAO's weights were read at (docs/governance.md, "Token holdings from the chain") */
export const snapshotBlockSchema = z
  .object({ number: z.string(), hash: z.string(), timestamp: isoDateTime })
  .meta({ id: 'SnapshotBlock' });

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
    votingSystem: VOTING_SYSTEM,
    /** token DAOs: the block whose holdings weigh the votes, taken when voting starts; else null */
    snapshotBlock: snapshotBlockSchema.nullable(),
    /** token DAOs: why the snapshot could not be taken yet (the proposal stays PENDING and retries) */
    snapshotError: z.string().nullable(),
    /** the DAO's rules when the proposal was created: its votes, results and outcome follow these */
    votingRules: votingRulesSchema,
    /** status CANCELLED: when, by which address and why; null otherwise */
    cancellation: z
      .object({ cancelledAt: isoDateTime, cancelledBy: z.string(), reason: z.string().nullable() })
      .nullable(),
    /**
     * the CID of the proposal's record, fixed when it closes (docs/governance.md, "The proposal record");
     * null while it is open
     */
    recordCid: z.string().nullable(),
    /** when the record's blocks were stored and pinned on the IPFS node; null until then */
    recordPublishedAt: isoDateTime.nullable(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'ProposalSummary' });

export const roleEntrySchema = z.object({ address: z.string(), role: DAO_ROLE }).meta({ id: 'RoleEntry' });
export const pendingOwnerSchema = z
  .object({ address: z.string(), requestedAt: isoDateTime })
  .meta({ id: 'PendingOwner' });

export const daoSchema = z
  .object({
    ...daoBase,
    members: z.array(z.string()),
    /** every address holding a role (the owner holds none: it is an implicit admin) */
    roles: z.array(roleEntrySchema),
    /** an ownership transfer waiting for the new owner to accept; null when none */
    pendingOwner: pendingOwnerSchema.nullable(),
    /** why an admin rejected the DAO (status INACTIVE); null otherwise */
    rejectionReason: z.string().nullable(),
    proposals: z.array(proposalSummarySchema),
  })
  .meta({ id: 'Dao' });

export const daoIdInput = z.strictObject({ daoId: id });
export const listDaosInput = z.strictObject({
  ...pageQuery,
  q: z.string().trim().min(1).max(100).optional().meta({
    description: 'only DAOs whose name or description contains this text (ignoring case)',
  }),
  status: DAO_STATUS.optional(),
  member: address.optional().meta({ description: 'only DAOs this address is a member of' }),
});
export const daosByOwnerInput = z.strictObject({ ...pageQuery, ownerAddress: address });
export const setDaoStatusInput = z.strictObject({
  daoId: id,
  status: z.enum(['ACTIVE', 'INACTIVE']),
  actorAddress,
});

export const rejectDaoInput = z.strictObject({
  daoId: id,
  reason: z.string().trim().min(1, 'required').max(1_000),
});

// ---- settings, history, roles, ownership (docs/governance.md, "Changing the rules", "Roles", "Ownership") ----

export const updateDaoInput = z.strictObject({
  daoId: id,
  actorAddress,
  name: z.string().trim().min(1, 'required').max(100).optional(),
  description: z.string().max(2_000).optional(),
  votingRules: votingRulesPatch.optional(),
});
export type UpdateDaoInput = z.output<typeof updateDaoInput>;

export const historyEntrySchema = z
  .object({
    changedAt: isoDateTime,
    /** the address that acted; null for a platform admin */
    actorAddress: z.string().nullable(),
    /** field → { from, to } */
    changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  })
  .meta({ id: 'HistoryEntry' });
export const daoHistoryInput = z.strictObject({ daoId: id, ...pageQuery });
export const proposalHistoryInput = z.strictObject({ proposalId: id, ...pageQuery });

export const roleSchema = z
  .object({
    address: z.string(),
    role: DAO_ROLE,
    /** the address that granted it; null when none did (the old owner kept as an admin) */
    grantedBy: z.string().nullable(),
    grantedAt: isoDateTime,
  })
  .meta({ id: 'Role' });
export const setRoleInput = z.strictObject({ daoId: id, address, role: DAO_ROLE, actorAddress });
export const removeRoleInput = z.strictObject({ daoId: id, address, actorAddress });
export const listRolesInput = z.strictObject({ daoId: id, ...pageQuery });

export const transferOwnerInput = z.strictObject({ daoId: id, newOwnerAddress: address, actorAddress });
export const acceptOwnerInput = z.strictObject({
  daoId: id,
  /** the caller's wallet the transfer names; default: found among the caller's wallets */
  address: address.optional(),
});
export const withdrawTransferInput = z.strictObject({ daoId: id, actorAddress });
export const ownerTransferSchema = z
  .object({
    daoId: id,
    ownerAddress: z.string(),
    pendingOwner: pendingOwnerSchema,
  })
  .meta({ id: 'OwnerTransfer' });

/** what an address may do in a DAO (docs/governance.md, "Roles"): the web app shows only what works */
export const daoPermissionsInput = z.strictObject({ daoId: id, address });
export const daoPermissionsSchema = z
  .object({
    daoId: id,
    address: z.string(),
    /** owner, or its role; null for none */
    role: z.enum(['owner', 'admin', 'moderator', 'author']).nullable(),
    member: z.boolean(),
    editSettings: z.boolean(),
    manageMembers: z.boolean(),
    manageRoles: z.boolean(),
    transferOwnership: z.boolean(),
    cancelAnyProposal: z.boolean(),
    /** may create a proposal now (rule votingRules.proposers; a holders DAO reads the chain) */
    propose: z.boolean(),
    /** why not, when propose is false */
    proposeRefusal: z
      .enum(['NOT_A_MEMBER', 'NOT_AN_AUTHOR', 'BELOW_PROPOSAL_THRESHOLD', 'DAO_NOT_ACTIVE'])
      .nullable(),
  })
  .meta({ id: 'DaoPermissions' });

// ---- members ----

export const addMemberInput = z.strictObject({ daoId: id, memberAddress: address, actorAddress });
export const memberPathInput = z.strictObject({ daoId: id, memberAddress: address, actorAddress });
export const setBalanceInput = z.strictObject({
  daoId: id,
  memberAddress: address,
  tokenBalance: uint256String,
  actorAddress,
});
export const MAX_BULK_MEMBERS = 1_000;
export const bulkMembersInput = z.strictObject({
  daoId: id,
  /** addresses as pasted: each is checked on its own, and a bad one is reported, not fatal */
  addresses: z.array(z.string().max(200)).min(1).max(MAX_BULK_MEMBERS),
  actorAddress,
});
export const bulkMembersSchema = z
  .object({
    added: z.array(z.string()),
    alreadyMembers: z.array(z.string()),
    invalid: z.array(z.object({ address: z.string(), reason: z.enum(['INVALID_ADDRESS', 'DUPLICATE']) })),
    memberCount: z.number().int(),
  })
  .meta({ id: 'BulkMembers' });
export const listMembersInput = z.strictObject({ daoId: id, ...pageQuery, ...afterQuery });

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
  .array(z.string().trim().min(1, coded('not_empty', 'must not be empty')).max(100))
  .max(5, coded('options_at_most_five', 'at most 5 options'))
  .optional()
  .transform((opts, ctx) => {
    if (!opts || opts.length === 0) return [...DEFAULT_VOTING_OPTIONS];
    if (opts.length < 2)
      ctx.addIssue({
        code: 'custom',
        params: { code: 'options_count' },
        message: 'give 2 to 5 options (or none)',
      });
    const seen = new Set<string>();
    opts.forEach((o, i) => {
      const key = o.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          params: { code: 'options_distinct' },
          path: [i],
          message: 'options must be distinct (ignoring case)',
        });
      seen.add(key);
    });
    return opts;
  });

const proposalData = z
  .record(z.string(), z.unknown())
  .default({})
  .refine(
    (d) => new TextEncoder().encode(JSON.stringify(d)).length <= MAX_PROPOSAL_DATA_BYTES,
    refined('too_long_64k', 'must be at most 64 KiB'),
  );

export const createProposalInput = z
  .strictObject({
    daoId: id,
    title: z.string().trim().min(1, 'required').max(200),
    description: z.string().max(20_000).default(''),
    creatorAddress: address,
    votingDurationHours: exact(
      z
        .number()
        .min(1 / 3600, coded('at_least_one_second', 'must be at least one second'))
        .max(MAX_VOTING_HOURS),
    ),
    proposalData,
    votingOptions,
    /** default single-choice; basic fixes the options to For, Against, Abstain */
    votingSystem: VOTING_SYSTEM.default('single-choice'),
    startTime: isoDateTime.optional(),
  })
  .superRefine((p, ctx) => {
    const fixedOptions = VOTING_SYSTEM_TRAITS[p.votingSystem].fixedOptions;
    if (!fixedOptions) return;
    // basic votes For, Against, Abstain (core stores exactly those); other options are a mistake
    const given = p.votingOptions.map((o) => o.toLowerCase()).sort();
    const fixed = fixedOptions.map((o) => o.toLowerCase()).sort();
    if (given.join('\n') !== fixed.join('\n'))
      ctx.addIssue({
        code: 'custom',
        params: { code: 'basic_options' },
        path: ['votingOptions'],
        message: `a ${p.votingSystem} proposal votes ${fixedOptions.join(', ')}: leave votingOptions out`,
      });
  });
export type CreateProposalInput = z.output<typeof createProposalInput>;

export const proposalIdInput = z.strictObject({ proposalId: id });

export const cancelProposalInput = z.strictObject({
  proposalId: id,
  reason: z.string().trim().max(1_000).optional(),
  actorAddress,
});

/**
 * PATCH /proposals/{proposalId}: any of these while the proposal is PENDING. The core lays them over the
 * proposal and checks the whole as at creation (createProposalInput).
 */
export const updateProposalInput = z.strictObject({
  proposalId: id,
  actorAddress,
  title: z.string().optional(),
  description: z.string().optional(),
  proposalData: z.record(z.string(), z.unknown()).optional(),
  votingOptions: z.array(z.string()).max(5).optional(),
  votingSystem: VOTING_SYSTEM.optional(),
  /** in the future; voting opens then */
  startTime: isoDateTime.optional(),
  votingDurationHours: exact(z.number()).optional(),
});
export const listProposalsInput = z.strictObject({
  daoId: id,
  ...pageQuery,
  status: PROPOSAL_STATUS.optional(),
});
export const listActiveProposalsInput = z.strictObject({ daoId: id, ...pageQuery });

// ---- votes ----

const optionName = z.string().max(100);
/**
 * A ballot, shaped by the proposal's voting system (docs/governance.md, "Voting systems"): an option name
 * (single-choice, basic), an array of option names (approval: the approved ones, possibly none;
 * ranked-choice: most preferred first), or an object option name → points (weighted, quadratic). A signed
 * vote may also send the array or object as the canonical JSON text it signed.
 */
export const ballotInput = z
  .union(
    [
      z
        .string()
        .min(1, 'required')
        .max(1_000)
        .meta({ description: 'single-choice, basic: the option name', example: 'For' }),
      z
        .array(optionName)
        .max(5)
        .meta({
          description: 'approval: the approved options (may be empty); ranked-choice: most preferred first',
          example: ['Option A', 'Option C'],
        }),
      z.record(optionName, z.number()).meta({
        description: 'weighted, quadratic: points per option (≥ 0, fractions allowed, at least one > 0)',
        example: { 'Option A': 2, 'Option B': 1 },
      }),
    ],
    coded(
      'invalid_choice',
      'must be an option name, an array of option names, or an object of option name → points, as the voting system wants',
    ),
  )
  .meta({ id: 'Ballot' });
export type BallotInput = z.output<typeof ballotInput>;

/** a stored ballot as returned; null while hidden */
export const ballotSchema = z.union([z.string(), z.array(z.string()), z.record(z.string(), z.number())]);

export const castVoteInput = z.strictObject({
  proposalId: id,
  daoId: id,
  voterAddress: address,
  choice: ballotInput,
  comment: z.string().max(1_000).optional(),
  /** EIP-712 signature of the voter (votes without a session) */
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]+$/, coded('invalid_hex', 'must be 0x-prefixed hex'))
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

/** GET /eip712/vote: the typed data, and how each voting system's ballot is written as `choice` */
export const eip712VoteGuideSchema = eip712VoteSchema
  .extend({
    /** how a ballot becomes the signed `choice` string */
    choiceEncoding: z.string(),
    /** one example per voting system: the ballot as POST /votes takes it, and the `choice` to sign */
    examples: z.array(
      z.object({ votingSystem: VOTING_SYSTEM, choice: z.lazy(() => ballotSchema), signedChoice: z.string() }),
    ),
  })
  .meta({ id: 'Eip712VoteGuide' });

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
    /**
     * the ballot in its system's shape (see Ballot), normalized: option names as the proposal spells them,
     * approval in the proposal's order. null while the results are hidden, except to the voter
     */
    choice: ballotSchema.nullable(),
    /** what the vote counts now: ownWeight + delegatedWeight (docs/governance.md, "Counting") */
    weight: z.string(),
    /** the voter's own weight in the frozen electorate */
    ownWeight: z.string(),
    /** the weight of the voter's frozen delegators that have no counted vote on the proposal; "0" without */
    delegatedWeight: z.string(),
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

/** POST /votes: the vote, with its receipt (docs/governance.md, "Receipts") */
export const castVoteOutput = voteSchema
  .extend({
    /** the CID of the ballot's leaf in the proposal's record: check it later with GET /votes/{voteId}/receipt */
    receipt: z.string(),
  })
  .meta({ id: 'CastVote' });

/** GET /proposals/{proposalId}/record (docs/governance.md, "The proposal record") */
export const proposalRecordSchema = z
  .object({
    proposalId: id,
    status: PROPOSAL_STATUS,
    /** the record's root CID (dag-cbor, CIDv1) */
    recordCid: z.string(),
    /** when its blocks were stored and pinned on the server's IPFS node; null until then */
    publishedAt: isoDateTime.nullable(),
    /** the URL of the whole record as one CARv1 file (streamed): API_URL + /proposals/{proposalId}/record.car */
    car: z.string(),
    /** the server's record key (Ed25519, hex): `npm run verify -- … --key` pins it */
    publicKey: z.string(),
  })
  .meta({ id: 'ProposalRecord' });

/** GET /votes/{voteId}/receipt (docs/governance.md, "Receipts") */
export const voteReceiptSchema = z
  .object({
    voteId: id,
    proposalId: id,
    recordCid: z.string(),
    /** the tree holding the ballot: the counted ballots, or the replaced ones */
    tree: z.enum(['ballots', 'replaced']),
    /** the ballot's place among its tree's leaves, from 0 */
    index: z.number().int(),
    /** the CID of the ballot's leaf: the receipt POST /votes returned */
    leaf: z.string(),
    /** the siblings from the leaf up to the tree's root: `side` is where the sibling sits (l or r) */
    proof: z.array(z.object({ side: z.enum(['l', 'r']), cid: z.string() })),
  })
  .meta({ id: 'VoteReceipt' });
/** the orders of a proposal's votes list (docs/governance.md, "Listing the votes") */
export const VOTE_SORT = z.enum(['newest', 'oldest', 'weight']).meta({
  id: 'VoteSort',
  description:
    'newest (default): newest first; oldest: oldest first; weight: highest weight first, equal weights newest first',
});
export type VoteSort = z.output<typeof VOTE_SORT>;
export const votesOfProposalInput = z.strictObject({
  proposalId: id,
  ...pageQuery,
  ...afterQuery,
  /** only the votes supporting this option (docs/governance.md, "Listing the votes") */
  choice: z.string().trim().min(1).max(100).optional().meta({
    description:
      'only votes supporting this option (matched ignoring case): single-choice/basic chose it, approval approves it, weighted/quadratic give it points > 0, ranked-choice ranks it',
  }),
  sort: VOTE_SORT.default('newest'),
});
export const voterVoteInput = z.strictObject({ proposalId: id, voterAddress: address });

const optionScore = z.object({
  option: z.string(),
  /** ballots counting for the option (ranked-choice: in this round) */
  votes: z.number().int(),
  /** its score: whole weight units, or a decimal with 18 places (weighted, quadratic) */
  weight: z.string(),
});
export const rankedRoundSchema = z
  .object({
    round: z.number().int(),
    /** every option in the proposal's order; 0 for one out of the race */
    scores: z.array(optionScore),
    /** the options in the race this round (still on some ballot), in the proposal's order */
    continuing: z.array(z.string()),
    /** weight of the ballots still counted in this round */
    remainingWeight: z.string(),
    /** the option struck out after this round; null in the last round */
    eliminated: z.string().nullable(),
  })
  .meta({ id: 'RankedRound' });

export const resultsSchema = z
  .object({
    proposalId: id,
    status: PROPOSAL_STATUS,
    votingSystem: VOTING_SYSTEM,
    options: z.array(optionScore.extend({ percent: z.number() })),
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
    /** token DAOs: the chain block the electorate's weights were read at; null otherwise */
    snapshotBlock: snapshotBlockSchema.nullable(),
    /** ranked-choice: the instant-runoff rounds, the last one's scores being options[]; null otherwise */
    rounds: z.array(rankedRoundSchema).nullable(),
    /** the proposal was cancelled: the figures are those at cancellation, and nothing was decided */
    cancelled: z.boolean(),
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Results' });

// ---- voting power, tokens ----

/**
 * why an address cannot vote on a proposal now: the voting power's `reason`, and the `reason` of the
 * vote's refusal (docs/governance.md, "Voting power")
 */
export const INELIGIBLE_REASON = z.enum([
  'NOT_STARTED',
  'ENDED',
  'DAO_NOT_ACTIVE',
  'NOT_A_MEMBER',
  'JOINED_AFTER_START',
  'NO_WEIGHT',
  'BELOW_MIN_WEIGHT',
  'ACCOUNT_SUSPENDED',
  'ACCOUNT_DELETED',
  'CANCELLED',
]);
export type IneligibleReason = z.output<typeof INELIGIBLE_REASON>;

export const votingPowerInput = z.strictObject({ proposalId: id, address });
export const votingPowerSchema = z
  .object({
    proposalId: id,
    address: z.string(),
    /** the weight this address votes with (base units); "0" when it has none */
    weight: z.string(),
    /**
     * the weight of its frozen delegators without a counted vote on the proposal: what its counted vote
     * carries, or its vote would carry now (docs/governance.md, "Counting"); "0" when it cannot vote, and
     * without delegation
     */
    delegatedWeight: z.string(),
    /** how many frozen delegators that is */
    delegatorCount: z.number().int(),
    /**
     * its own delegate, frozen for this proposal when it started (docs/governance.md, "Counting"): its
     * weight goes with that delegate's vote until it votes itself. `choice` is the delegate's counted
     * ballot, null while it has none or while the results are hidden. Null without a delegate, before the
     * start and without delegation.
     */
    delegate: z
      .object({ address: z.string(), hasVoted: z.boolean(), choice: ballotSchema.nullable() })
      .nullable(),
    /** true when it may vote now */
    eligible: z.boolean(),
    /** why not, when not eligible */
    reason: INELIGIBLE_REASON.nullable(),
    member: z.boolean(),
    /** it has a counted vote on this proposal */
    hasVoted: z.boolean(),
    /** it may cancel this proposal now (its author while open, the DAO's owner, admins, moderators) */
    canCancel: z.boolean(),
    /** it may edit this proposal now (its author or a DAO admin, while PENDING) */
    canEdit: z.boolean(),
    snapshotBlock: snapshotBlockSchema.nullable(),
  })
  .meta({ id: 'VotingPower' });

export const tokenLookupInput = z.strictObject({
  chainId: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  address,
  standard: TOKEN_STANDARD,
});
export const tokenInfoSchema = z
  .object({
    chainId: z.number().int(),
    address: z.string(),
    standard: TOKEN_STANDARD,
    symbol: z.string(),
    decimals: z.number().int(),
  })
  .meta({ id: 'TokenInfo' });

// ---- delegation: reading, statements (docs/governance.md, "Reading delegations", "Delegate statements") ----

export const MAX_DELEGATE_STATEMENT = 10_000;
export const delegateSchema = z
  .object({
    address: z.string(),
    /** how many addresses delegate to it now */
    delegatorCount: z.number().int(),
    /** their weight now (base units; equal DAOs: 1 per delegator who is a member) */
    delegatedWeight: z.string(),
    /** its own weight now: its balance, or 1 (equal DAOs); "0" when it is no member */
    ownWeight: z.string(),
    /** its statement in this DAO (markdown), null when none */
    statement: z.string().nullable(),
    /** the DAO's started, not cancelled proposals it has a counted vote on */
    proposalsVoted: z.number().int(),
    /** proposalsVoted / the DAO's started, not cancelled proposals; null when there are none */
    participationRate: z.number().min(0).max(1).nullable(),
  })
  .meta({ id: 'Delegate' });
export const listDelegatesInput = z.strictObject({ daoId: id, ...pageQuery });
export const delegationOfInput = z.strictObject({ daoId: id, address, ...pageQuery });
export const delegationOfSchema = z
  .object({
    /** whom the address delegates to; null when nobody */
    delegate: z.object({ delegateAddress: z.string(), createdAt: isoDateTime }).nullable(),
    /**
     * an erc20-votes token DAO: the token's own delegate of the address at the newest block, read from the
     * chain (the delegation that counts there); null when it names nobody, and in every other DAO
     */
    chainDelegate: z.string().nullable(),
    /** who delegates to the address, in address order, paged by page and limit */
    delegators: z.object({
      items: z.array(z.object({ delegatorAddress: z.string(), weight: z.string(), createdAt: isoDateTime })),
      total: z.number().int(),
    }),
  })
  .meta({ id: 'DelegationOf' });
export const setStatementInput = z.strictObject({
  daoId: id,
  address,
  /** markdown, kept as text; trimmed; "" deletes it */
  statement: z.string().trim().max(MAX_DELEGATE_STATEMENT),
});
export const statementSchema = z
  .object({ daoId: id, address: z.string(), statement: z.string(), updatedAt: isoDateTime })
  .meta({ id: 'DelegateStatement' });
