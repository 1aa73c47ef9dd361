import { daos } from '@plenum/db';
import { fieldIssue, type UpdateDaoInput, votingRulesInput } from '@plenum/validators';
import { eq } from 'drizzle-orm';
import { canonicalAddress } from '../auth/address';
import type { Services } from '../services';
import { AppError, notFound } from '../shared/errors';
import type { Page } from '../shared/pagination';
import { actingAs } from './dao-authority';
import { getDao } from './dao-queries';
import { refuseOffChainDelegation } from './delegation';
import { type Changes, changesBetween, pageHistory, recordDaoChange } from './history';
import { type DaoRow, requireDao } from './rows';
import { type RuleColumns, votingRulesView } from './serialize';

/**
 * Editing a DAO (docs/governance.md, "Changing the rules"): name, description and any subset of its voting
 * rules, by the owner or an admin. The rules bind proposals created after the edit; a proposal keeps the copy
 * it was created with. Each edit is one history entry and one `dao_updated` event, written with the change.
 */

type Patch = NonNullable<UpdateDaoInput['votingRules']>;
type TokenRef = { chainId: number; address: string; standard: 'erc20' | 'erc20-votes' };

const sameToken = (a: TokenRef | null | undefined, b: TokenRef | null | undefined) =>
  (a ?? null) === (b ?? null) ||
  (!!a && !!b && a.chainId === b.chainId && a.address === b.address && a.standard === b.standard);

/** a DAO's current rules in the form creation takes them (the token without what the chain told) */
function rulesInputOf(d: RuleColumns): Record<string, unknown> {
  const v = votingRulesView(d);
  const raw: Record<string, unknown> = {
    threshold: v.threshold,
    minVotingPeriod: v.minVotingPeriod,
    tokenWeighted: v.tokenWeighted,
    token: v.token
      ? { chainId: v.token.chainId, address: v.token.address, standard: v.token.standard }
      : null,
    membership: v.membership,
    minWeight: v.minWeight,
    quorum: v.quorum,
    resultsVisibility: v.resultsVisibility,
    allowVoteChange: v.allowVoteChange,
    proposers: v.proposers,
    proposalThreshold: v.proposalThreshold,
    maxActiveProposalsPerAuthor: v.maxActiveProposalsPerAuthor,
    delegation: v.delegation,
  };
  // null in the patch or in the row: the optional rule is absent
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== null));
}

/** the patch laid over the current rules, checked whole as at creation (400 VALIDATION_FAILED) */
function mergedRules(current: RuleColumns, patch: Patch) {
  const merged = rulesInputOf(current);
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  const parsed = votingRulesInput.safeParse(merged);
  if (!parsed.success)
    throw new AppError('BAD_REQUEST', 'These voting rules are not valid together', {
      reason: 'VALIDATION_FAILED',
      issues: parsed.error.issues.map((i) => fieldIssue({ ...i, path: ['votingRules', ...i.path] })),
    });
  return parsed.data;
}

const patchToken = (patch: Patch | undefined): TokenRef | null | undefined =>
  patch?.token
    ? { ...patch.token, address: canonicalAddress(patch.token.address, 'votingRules.token.address') }
    : patch?.token;

/** PATCH /daos/{daoId}: 200 with the DAO; an edit that changes nothing writes nothing */
export async function updateDao(svc: Services, params: { userId: string; input: UpdateDaoInput }) {
  const { input } = params;
  const before = await requireDao(svc.db, input.daoId);
  // refused before anything reaches a chain
  await actingAs(svc.db, {
    userId: params.userId,
    dao: before,
    power: 'settings',
    actorAddress: input.actorAddress,
  });
  const wanted = patchToken(input.votingRules);
  // refused before a new token reaches its chain; checked again below on the rules as merged
  refuseOffChainDelegation({
    delegation: input.votingRules?.delegation ?? before.delegation,
    token: wanted === undefined ? currentToken(before) : wanted,
  });
  // a new token is checked on its chain before the transaction (400 CHAIN_NOT_CONFIGURED, TOKEN_NOT_FOUND)
  const described = new Map<string, { symbol: string; decimals: number }>();
  const describe = async (token: TokenRef) => {
    const key = `${token.chainId}:${token.address}:${token.standard}`;
    if (!described.has(key)) described.set(key, await svc.chain.describeToken(token));
    return described.get(key)!;
  };
  if (wanted && !sameToken(wanted, currentToken(before))) await describe(wanted);

  await svc.db.transaction(async (tx) => {
    // the row locked, then read: a concurrent edit lands whole before or after this one, and this change
    // is computed against what it left (docs/governance.md, "History"). NO KEY UPDATE: new proposals and
    // votes, whose foreign keys share-lock the row, do not wait for it
    const [dao] = await tx.select().from(daos).where(eq(daos.id, input.daoId)).for('no key update');
    if (!dao) throw notFound('DAO not found');
    const actor = await actingAs(tx, {
      userId: params.userId,
      dao,
      power: 'settings',
      actorAddress: input.actorAddress,
    });
    const next: Partial<DaoRow> = {};
    if (input.name !== undefined) next.name = input.name;
    if (input.description !== undefined) next.description = input.description;
    let rules: RuleColumns | null = null;
    if (input.votingRules) {
      const r = mergedRules(dao, input.votingRules);
      refuseOffChainDelegation(r);
      const token = r.token
        ? { ...r.token, address: canonicalAddress(r.token.address, 'votingRules.token.address') }
        : null;
      const kept = sameToken(token, currentToken(dao));
      // a token another edit set meanwhile and this one sets back: described here (rare, and short)
      const info = token
        ? kept
          ? { symbol: dao.tokenSymbol ?? '', decimals: dao.tokenDecimals ?? 18 }
          : await describe(token)
        : null;
      rules = {
        threshold: String(r.threshold),
        minVotingPeriod: String(r.minVotingPeriod),
        tokenWeighted: r.tokenWeighted,
        tokenChainId: token?.chainId ?? null,
        tokenAddress: token?.address ?? null,
        tokenStandard: token?.standard ?? null,
        tokenSymbol: info?.symbol ?? null,
        tokenDecimals: info?.decimals ?? null,
        membership: r.membership,
        minWeight: r.minWeight ?? null,
        quorum: String(r.quorum),
        resultsVisibility: r.resultsVisibility,
        allowVoteChange: r.allowVoteChange,
        proposers: r.proposers,
        proposalThreshold: r.proposalThreshold ?? null,
        maxActiveProposalsPerAuthor: r.maxActiveProposalsPerAuthor ?? null,
        delegation: r.delegation,
      };
    }
    const changes: Changes = changesBetween(
      { name: dao.name, description: dao.description },
      { name: next.name ?? dao.name, description: next.description ?? dao.description },
    );
    if (rules) {
      const ruleChanges = changesBetween(votingRulesView(dao), votingRulesView(rules));
      for (const [field, change] of Object.entries(ruleChanges)) changes[`votingRules.${field}`] = change;
    }
    if (!Object.keys(changes).length) return;
    const now = svc.clock.now();
    await tx
      .update(daos)
      .set({ ...next, ...(rules ?? {}), updatedAt: now })
      .where(eq(daos.id, dao.id));
    await recordDaoChange(tx, { daoId: dao.id, actorAddress: actor.address, changes, at: now });
  });
  return getDao(svc, { daoId: input.daoId });
}

function currentToken(d: RuleColumns): TokenRef | null {
  return d.tokenChainId !== null && d.tokenAddress && d.tokenStandard
    ? { chainId: d.tokenChainId, address: d.tokenAddress, standard: d.tokenStandard }
    : null;
}

/** GET /daos/{daoId}/history: every edit, role, ownership and status change, newest first */
export async function daoHistory(svc: Services, params: Page & { daoId: string }) {
  await requireDao(svc.db, params.daoId);
  return pageHistory(svc.db, params);
}
