'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { governanceError } from '../../lib/governance/errors';
import { formatBallot, formatWeight } from '../../lib/governance/format';
import { formatTokenAmount, type TokenRef } from '../../lib/governance/token';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { Address } from '../ui/address';
import { DateTime } from '../ui/date-time';
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
      <h2 id="votes-heading" className="sr-only">
        Votes ({votes.data?.pagination.total ?? voteCount})
      </h2>
      {votes.isError && <ErrorAlert error={governanceError(votes.error)} />}
      {votes.data && votes.data.items.length === 0 && (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          No votes yet.
        </p>
      )}
      {votes.data && votes.data.items.length > 0 && (
        <ul className="flex flex-col divide-y rounded-lg border" data-testid="votes">
          {votes.data.items.map((v) => (
            <li key={v.voteId} className="flex min-w-0 flex-col gap-1 p-3">
              <div>
                <strong>
                  {formatBallot(v.choice, votingSystem, votingOptions) ?? 'hidden until the end'}
                </strong>{' '}
                · weight{' '}
                <span data-weight={v.weight}>
                  {token ? formatTokenAmount(v.weight, token.decimals, token.symbol) : formatWeight(v.weight)}
                </span>
                {v.signature && <span className="ml-2 rounded-full border px-2 py-0.5 text-xs">signed</span>}
              </div>
              <div className="text-sm">
                <Address address={v.voterAddress} />
              </div>
              {v.comment && <p className="break-words whitespace-pre-line">{v.comment}</p>}
              <div className="text-xs text-muted-foreground">
                <DateTime value={v.createdAt} />
              </div>
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
