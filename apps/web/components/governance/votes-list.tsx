'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { governanceError } from '../../lib/governance/errors';
import { formatBallot, formatDateTime, formatWeight } from '../../lib/governance/format';
import { formatTokenAmount, type TokenRef } from '../../lib/governance/token';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { Pager } from './controls';

/** Every vote, newest first, paged. */
export function VotesList({
  proposalId,
  voteCount,
  votingSystem,
  votingOptions,
  token = null,
}: {
  proposalId: string;
  voteCount: number;
  votingSystem?: string;
  votingOptions?: readonly string[];
  /** a token DAO's weights are base units: shown with its decimals and symbol */
  token?: Pick<TokenRef, 'decimals' | 'symbol'> | null;
}) {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const votes = useQuery({
    ...trpc.governance.votes.byProposal.queryOptions({ proposalId, page, limit: 25 }),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="votes-heading" className="stack">
      <h2 id="votes-heading">Votes ({votes.data?.pagination.total ?? voteCount})</h2>
      {votes.isError && <ErrorAlert error={governanceError(votes.error)} />}
      {votes.data && votes.data.items.length === 0 && <p className="muted">No votes yet.</p>}
      {votes.data && votes.data.items.length > 0 && (
        <ul className="vote-list" data-testid="votes">
          {votes.data.items.map((v) => (
            <li key={v.voteId}>
              <div>
                <strong>
                  {formatBallot(v.choice, votingSystem, votingOptions) ?? 'hidden until the end'}
                </strong>{' '}
                · weight{' '}
                <span data-weight={v.weight}>
                  {token ? formatTokenAmount(v.weight, token.decimals, token.symbol) : formatWeight(v.weight)}
                </span>
                {v.signature && <span className="badge">signed</span>}
              </div>
              <div className="address muted small">{v.voterAddress}</div>
              {v.comment && <p className="prose">{v.comment}</p>}
              <div className="muted small">{formatDateTime(v.createdAt)}</div>
            </li>
          ))}
        </ul>
      )}
      {votes.data && (
        <Pager
          label="Vote pages"
          page={page}
          totalPages={votes.data.pagination.totalPages}
          onPage={setPage}
        />
      )}
    </section>
  );
}
