'use client';
import type { VoteSort, VotingSystemName } from '@plenum/validators';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, useState } from 'react';
import { formatBallot } from '../../lib/governance/format';
import { votesInput } from '../../lib/governance/page-reads';
import type { TokenRef } from '../../lib/governance/token';
import { useAmounts } from '../../lib/governance/use-amounts';
import { useTRPC } from '../../lib/trpc';
import { useSearchParam } from '../../lib/use-search-param';
import { Address } from '../ui/address';
import { DateTime } from '../ui/date-time';
import { Label } from '../ui/label';
import { Pager } from '../ui/pager';
import { ErrorRetry, Loading } from '../ui/query-state';
import { Select } from '../ui/select';

const SORTS: { value: VoteSort; key: 'sortNewest' | 'sortOldest' | 'sortWeight' }[] = [
  { value: 'newest', key: 'sortNewest' },
  { value: 'oldest', key: 'sortOldest' },
  { value: 'weight', key: 'sortWeight' },
];

/**
 * Every counted vote, paged, in the order picked (newest first, oldest first, highest weight first) and
 * optionally only those supporting one option (docs/governance.md, "Listing the votes"). While the results
 * are hidden the API refuses a choice filter, so the choice picker is off then.
 */
export function VotesList({
  proposalId,
  voteCount,
  votingSystem,
  votingOptions = [],
  token = null,
}: {
  proposalId: string;
  voteCount: number;
  votingSystem?: VotingSystemName;
  votingOptions?: readonly string[];
  /** a token DAO's weights are base units: shown with its decimals and symbol */
  token?: Pick<TokenRef, 'decimals' | 'symbol'> | null;
}) {
  const t = useTranslations('votes.list');
  const amounts = useAmounts();
  const trpc = useTRPC();
  const id = useId();
  const [page, setPage] = useState(1);
  // in the address (?choice=…&sort=…), so a filtered list can be linked to; an unknown value is ignored
  const [choiceParam, setChoice] = useSearchParam('choice');
  const [sortParam, setSort] = useSearchParam('sort');
  const choice = choiceParam && votingOptions.includes(choiceParam) ? choiceParam : '';
  const sort: VoteSort = SORTS.some((s) => s.value === sortParam) ? (sortParam as VoteSort) : 'newest';
  // the proposal page keeps the results current; this only reads them from the cache
  const results = useQuery({ ...trpc.governance.votes.results.queryOptions({ proposalId }), enabled: false });
  const hidden = results.data?.hidden ?? false;
  const filter = hidden ? '' : choice;
  const votes = useQuery({
    ...trpc.governance.votes.byProposal.queryOptions(votesInput(proposalId, page, sort, filter)),
    placeholderData: keepPreviousData,
  });
  const total = votes.data?.pagination.total;
  // the count follows the results (live events, or polling when signed out): a list read before the
  // count moved would still say "No votes yet" under "Votes (2)", so it is read again when it moves
  const queryClient = useQueryClient();
  const countSeen = useRef(voteCount);
  useEffect(() => {
    if (countSeen.current === voteCount) return;
    countSeen.current = voteCount;
    void queryClient.invalidateQueries({
      queryKey: trpc.governance.votes.byProposal.queryKey({ proposalId }),
    });
  }, [voteCount, proposalId, queryClient, trpc]);
  return (
    <section aria-labelledby="votes-heading" className="stack">
      <h2 id="votes-heading" className="sr-only">
        {t('heading', { count: filter ? voteCount : (total ?? voteCount) })}
      </h2>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2" data-testid="votes-controls">
        <div className="flex min-w-0 flex-col gap-1.5">
          <Label htmlFor={`${id}-choice`}>{t('choiceLabel')}</Label>
          <Select
            id={`${id}-choice`}
            value={filter}
            disabled={hidden}
            aria-describedby={hidden ? `${id}-hidden` : undefined}
            onChange={(e) => {
              setChoice(e.target.value);
              setPage(1);
            }}
          >
            <option value="">{t('allChoices')}</option>
            {votingOptions.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </Select>
          {hidden && (
            <p id={`${id}-hidden`} className="text-xs text-muted-foreground">
              {t('filterHidden')}
            </p>
          )}
        </div>
        <div className="flex min-w-0 flex-col gap-1.5">
          <Label htmlFor={`${id}-sort`}>{t('sortLabel')}</Label>
          <Select
            id={`${id}-sort`}
            value={sort}
            onChange={(e) => {
              setSort(e.target.value === 'newest' ? null : e.target.value);
              setPage(1);
            }}
          >
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {t(s.key)}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {filter && total !== undefined && (
        <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="votes-filtered">
          {t('filtered', { count: total, option: filter })}
        </p>
      )}
      {votes.isError && (
        <ErrorRetry error={votes.error} retrying={votes.isFetching} onRetry={() => void votes.refetch()} />
      )}
      {votes.isPending && !votes.isError && <Loading lines={4} />}
      {votes.data && votes.data.items.length === 0 && (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          {filter ? t('emptyFiltered', { option: filter }) : t('empty')}
        </p>
      )}
      {votes.data && votes.data.items.length > 0 && (
        <ul className="flex flex-col divide-y rounded-lg border" data-testid="votes">
          {votes.data.items.map((v) => (
            <li key={v.voteId} className="flex min-w-0 flex-col gap-1 p-3" data-testid="vote">
              <div>
                <strong data-testid="vote-choice">
                  {formatBallot(v.choice, votingSystem, votingOptions) ?? t('hiddenChoice')}
                </strong>{' '}
                · {t('weight')} <span data-weight={v.weight}>{amounts.tokenWeight(v.weight, token)}</span>
                {v.signature && (
                  <span className="ml-2 rounded-full border px-2 py-0.5 text-xs">{t('signed')}</span>
                )}
              </div>
              <div className="min-w-0 text-sm">
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
          label={t('pages')}
          page={page}
          pageCount={votes.data.pagination.totalPages}
          onPageChange={setPage}
        />
      )}
    </section>
  );
}
