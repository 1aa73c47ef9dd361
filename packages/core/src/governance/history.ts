import { type DbOrTx, governanceHistory } from '@plenum/db';
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { fetchPage, type Page } from '../shared/pagination';
import { appendEvents } from './event-log';

/**
 * What changed about a DAO or one of its proposals, and who changed it (docs/governance.md, "History"):
 * written in the transaction of the change, so an entry exists exactly when its change does.
 */
export type Changes = Record<string, { from: unknown; to: unknown }>;

/** the fields of `to` that differ from `from` (JSON equality), as { field: { from, to } } */
export function changesBetween(from: Record<string, unknown>, to: Record<string, unknown>): Changes {
  const out: Changes = {};
  for (const [key, value] of Object.entries(to)) {
    if (JSON.stringify(from[key] ?? null) !== JSON.stringify(value ?? null))
      out[key] = { from: from[key] ?? null, to: value ?? null };
  }
  return out;
}

export async function recordChange(
  tx: DbOrTx,
  entry: {
    daoId: string;
    /** a proposal's own history; absent: the DAO's */
    proposalId?: string | undefined;
    /** the acting address; null for a platform admin */
    actorAddress: string | null;
    changes: Changes;
    at: Date;
  },
): Promise<void> {
  if (!Object.keys(entry.changes).length) return;
  await tx.insert(governanceHistory).values({
    daoId: entry.daoId,
    proposalId: entry.proposalId ?? null,
    actorAddress: entry.actorAddress,
    changes: entry.changes,
    changedAt: entry.at,
  });
}

/**
 * A change to a DAO, in one step: its history entry and the `dao_updated` event carrying the same changes
 * (docs/governance.md, "History"). Nothing is written when nothing changed.
 */
export async function recordDaoChange(
  tx: DbOrTx,
  params: { daoId: string; actorAddress: string | null; changes: Changes; at: Date },
): Promise<void> {
  if (!Object.keys(params.changes).length) return;
  await recordChange(tx, params);
  await appendEvents(tx, {
    items: [
      {
        type: 'dao_updated',
        daoId: params.daoId,
        data: { daoId: params.daoId, actorAddress: params.actorAddress, changes: params.changes },
      },
    ],
    at: params.at,
  });
}

type HistoryRow = typeof governanceHistory.$inferSelect;
const entryView = (r: HistoryRow) => ({
  changedAt: r.changedAt.toISOString(),
  actorAddress: r.actorAddress,
  changes: r.changes,
});

/** a page of a DAO's history (proposalId absent) or a proposal's, newest first */
export async function pageHistory(db: DbOrTx, params: Page & { daoId?: string; proposalId?: string }) {
  const where = params.proposalId
    ? eq(governanceHistory.proposalId, params.proposalId)
    : and(eq(governanceHistory.daoId, params.daoId!), isNull(governanceHistory.proposalId));
  const { rows, pagination } = await fetchPage(
    params,
    db.select().from(governanceHistory).where(where).orderBy(desc(governanceHistory.id)).$dynamic(),
    db.select({ n: count() }).from(governanceHistory).where(where),
  );
  return { items: rows.map(entryView), pagination };
}
